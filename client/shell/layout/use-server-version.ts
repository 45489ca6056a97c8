import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { afterPageLoad } from './after-page-load';

let request: Promise<string | null> | undefined;

/**
 * The version string outside production (spec section 1), as the server reports it: only the
 * server knows its environment, the client is always a production build. In production the
 * server has no such call and this stays null. Asked once per page load, after the page's own
 * requests (afterPageLoad).
 */
export function useServerVersion(): string | null {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    request ??= afterPageLoad()
      .then(() => api.get<{ version: string }>('/version'))
      .then(
        (info) => info.version,
        () => null,
      );
    let current = true;
    void request.then((value) => current && setVersion(value));
    return () => {
      current = false;
    };
  }, []);
  return version;
}
