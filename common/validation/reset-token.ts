/**
 * The shape of a password-reset token, apart from the reset forms' schemas: the client checks it
 * before asking the server while the app's code still loads (client/features/password-reset/
 * token-check.ts), where the validation library is not loaded yet.
 */

/** Any UUID shape (the server makes v4): the token page refuses other last segments outright. */
const RESET_TOKEN_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isResetTokenShape(value: string): boolean {
  return RESET_TOKEN_PATTERN.test(value);
}
