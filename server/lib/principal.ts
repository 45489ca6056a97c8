/**
 * Who makes a call, as the areas' services see it. Each entry chain (server/entry/) turns its own
 * credentials into one of these, and the services never look at how it was proven:
 * - the patient API's session chain makes `guest` (a result-portal session: one screening, opened
 *   by its access code) and `patient` (a patient-portal account);
 * - the provider API's key chain (the provider's systems and staff tools, an API key with scopes)
 *   makes `provider`.
 */
type GuestPrincipal = { kind: 'guest'; screeningId: number };
export type PatientPrincipal = { kind: 'patient'; userId: number; requirePasswordChange: boolean };
/** `apiKeyId` is null for the staff command line, which runs on the server itself with no key; `actor` names the caller in the staff audit. */
export type ProviderPrincipal = { kind: 'provider'; apiKeyId: number | null; actor: string; scopes: readonly string[] };

/** What a patient-API session can be signed in as. */
export type SessionPrincipal = GuestPrincipal | PatientPrincipal;
type Principal = SessionPrincipal | ProviderPrincipal;

/** A service call's caller and the address it came from (`req.ip`, resolved through `trust proxy`), for the audit. */
export type RequestContext<Caller extends Principal = SessionPrincipal> = { caller: Caller; ip: string | undefined };
