/** Demo data of issue 2 (db/seeds/demo): fixed so anyone can try the portal. */
export const RESULT_CODE = 'Xk7mP2qa';
export const RESULT_BIRTH_DIGITS = '19680412';
export const RESULT_BIRTH_DATE = '1968-04-12';

export type PortalAccount = { login: string; password: string };
export const ANNA: PortalAccount = { login: 'anna.nowak@example.com', password: 'Mammo!2024demo' };
/** Flagged requirePasswordChange. */
export const EWA: PortalAccount = { login: 'ewa.wisniewska@example.com', password: 'Zmien!Haslo1' };
