/**
 * The locality register the copy-order form's address picks from (docs/api.md "Locality
 * register"): Poland's 16 provinces and every locality of the official register, each with its
 * district (powiat) and municipality (gmina), which tell apart the many places sharing one name.
 */

/** `GET /api/screening/provinces` answers `Province[]`, by name. `tId` is the TERYT code ("14"). */
export type Province = { id: number; tId: string; name: string };

/** `GET /api/screening/cities?provinceTid&cityName` answers `City[]`: the best matches first. */
export type City = { id: number; name: string; district: string; municipality: string; kind: LocalityKind | null };

/** A town (miasto) or a village (wieś); null for a place entered without the register. */
type LocalityKind = 'city' | 'village';
