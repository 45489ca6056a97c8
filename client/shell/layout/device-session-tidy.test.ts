// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { expect, it } from 'vitest';
import { rememberDeviceOwner, rememberedDeviceOwner } from '../../documents/device-owner';
import { watchDeviceSession } from './device-session';
import { deviceDbOfVersion3 } from '../../lib/device-db-test-support';

it('on the first start of this version, deletes the clear copies of earlier ones and forgets an owner who keeps nothing', async () => {
  // A device as versions 1 to 3 left it: her description kept in clear, without her asking, and
  // the browser closed without logging out.
  const before = deviceDbOfVersion3();
  await before.table('documents').put({ ownerKey: 'u:5', documentId: 'd', screeningId: 1, pdf: new Blob(['%PDF Maria Kowalska']) });
  before.close();
  rememberDeviceOwner('u:5');

  watchDeviceSession(Promise.resolve());

  await expect.poll(() => rememberedDeviceOwner()).toBeNull();
  const after = new Dexie('portal');
  await after.open();
  expect(after.verno).toBe(4);
  for (const table of after.tables) expect(await table.count(), table.name).toBe(0);
  after.close();
});
