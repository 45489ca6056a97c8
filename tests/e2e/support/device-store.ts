import type { Page } from '@playwright/test';

/**
 * One store of the device database the app keeps offline copies in (IndexedDB `portal`,
 * client/lib/device-db.ts), read in the page: how many records it holds, or the records. A store
 * the database does not have yet (nothing kept so far) holds none.
 */
function readStore(page: Page, store: string, mode: 'count' | 'all'): Promise<unknown> {
  return page.evaluate(
    ({ store, mode }) =>
      new Promise<unknown>((resolve, reject) => {
        const request = indexedDB.open('portal');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains(store)) {
            db.close();
            resolve(mode === 'count' ? 0 : []);
            return;
          }
          const objects = db.transaction(store).objectStore(store);
          const read = mode === 'count' ? objects.count() : objects.getAll();
          read.onsuccess = () => {
            db.close();
            resolve(read.result);
          };
          read.onerror = () => reject(read.error);
        };
      }),
    { store, mode },
  );
}

/** How many records a store of the device database holds, for every owner. */
export function keptCount(page: Page, store: 'screenings' | 'documents' | 'lists' | 'imageSets' | 'images' | 'ownerKeys'): Promise<number> {
  return readStore(page, store, 'count') as Promise<number>;
}

/** The records of a store of the device database; only for stores without file contents. */
export function keptRecords<T>(page: Page, store: 'screenings' | 'lists'): Promise<T[]> {
  return readStore(page, store, 'all') as Promise<T[]>;
}
