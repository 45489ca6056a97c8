/** The VALIDATION issue of a body field holding U+0000, which PostgreSQL's text cannot store (server/lib/unstorable-text.ts). */
export const UNSTORABLE_CHARACTER_MESSAGE = 'validation.unstorableCharacter';
