/**
 * What a provider API key may do. A key carries the scopes it was created with; each endpoint
 * names the one it needs, and a call without it is 403 `API_KEY_SCOPE`.
 */
export const PROVIDER_SCOPES = [
  'patients:write',
  'screenings:write',
  'documents:write',
  'images:write',
  'images:read',
  'orders:read',
  'orders:write',
  'catalog:write',
  'surveys:read',
] as const;

export type ProviderScope = (typeof PROVIDER_SCOPES)[number];

export function isProviderScope(value: string): value is ProviderScope {
  return (PROVIDER_SCOPES as readonly string[]).includes(value);
}
