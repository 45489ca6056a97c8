import { proxy } from 'valtio';

/** Whether a new version of the portal is installed and waiting for the user's go-ahead. */
export const pwaUpdate = proxy({ available: false, dismissed: false });

export function offerUpdate(): void {
  pwaUpdate.available = true;
  pwaUpdate.dismissed = false;
}

export function dismissUpdate(): void {
  pwaUpdate.dismissed = true;
}
