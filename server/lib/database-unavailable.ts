/**
 * Whether an error says the database cannot be reached right now (down, restarting, out of
 * connections), rather than that a query was wrong: such a request may succeed when retried, and is
 * answered 503 NO_CONNECTION with Retry-After instead of 500 INTERNAL.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  // No pooled connection came within knex's wait.
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string') {
    // The socket to the server: refused, reset, unreachable, no such host.
    if (SOCKET_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception), 57P01-57P03 (the server is shutting down or starting), 53300 (too many connections).
    if (/^08/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return true;
  }
  // pg's own words for a connection the server closed under it.
  return typeof message === 'string' && /^Connection terminated|^Client has encountered a connection error/.test(message);
}

const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
