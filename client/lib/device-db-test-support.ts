import { Dexie } from 'dexie';

/**
 * The device database as versions 1 to 3 of the portal left it (copies kept in clear, without
 * asking), opened for a test to fill and close before the current version upgrades it.
 */
export function deviceDbOfVersion3(): Dexie {
  const before = new Dexie('portal');
  before.version(1).stores({
    screenings: '[ownerKey+screeningId], ownerKey',
    documents: '[ownerKey+documentId], ownerKey, [ownerKey+screeningId]',
  });
  before.version(2).stores({ lists: '[ownerKey+kind], ownerKey' });
  before.version(3).stores({
    imageSets: '[ownerKey+screeningId], ownerKey',
    images: '[ownerKey+imageId], ownerKey, [ownerKey+screeningId]',
  });
  return before;
}
