import type { City, Province } from '../../common/types/geography';
import { foldPlaceName } from '../../common/validation/geography';
import type { Db } from '../db';
import { listProvinces, searchCities } from './geography-repo';

/** The locality register the copy-order form's address picks from (issue 12). */
export function createGeographyService(deps: { db: Db }) {
  return {
    provinces: (): Promise<Province[]> => listProvinces(deps.db),
    cities: (provinceTid: string, cityName: string): Promise<City[]> => searchCities(deps.db, provinceTid, foldPlaceName(cityName)),
  };
}
