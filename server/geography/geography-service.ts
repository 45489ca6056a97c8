import type { City, Province } from '../../common/types/geography';
import type { Db } from '../db';
import { listProvinces } from './geography-repo';
import { createLocalityIndex } from './locality-index';

/** The locality register the copy-order form's address picks from (issue 12). */
export function createGeographyService(deps: { db: Db }) {
  const localities = createLocalityIndex(deps.db);
  return {
    provinces: (): Promise<Province[]> => {
      // The form asks for the provinces first: the place search is ready by the time she types.
      localities.prepare();
      return listProvinces(deps.db);
    },
    cities: (provinceTid: string, cityName: string): Promise<City[]> => localities.search(provinceTid, cityName),
  };
}
