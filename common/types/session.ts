/** The signed-in user as `GET /api/user/profile` and both logins answer it (docs/api.md). */
type SessionPersonalData = {
  firstName: string;
  lastName: string;
  birthAt: string;
  pesel: string | null;
  email: string | null;
  phoneNumber: string | null;
};

export type SessionUser = {
  /** null for a result-portal (guest) session */
  id: number | null;
  guest: boolean;
  email: string | null;
  personalDataId: number | null;
  requirePasswordChange: boolean;
  /** null for guests */
  personalData: SessionPersonalData | null;
  /** the one screening of a guest session */
  screeningId: number | null;
};

/** Both login calls answer this; the client replaces its CSRF token with the fresh one. */
export type LoginResponse = { user: SessionUser; csrfToken: string };

/** `GET /api/auth/session`: the signed-in user, or null for a visitor (always 200). */
export type SessionAnswer = { user: SessionUser | null };

/** `GET /api/screening` */
export type ScreeningInfo = { id: number; createdAt: string };
