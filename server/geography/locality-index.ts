import type { City } from '../../common/types/geography';
import { foldPlaceName } from '../../common/validation/geography';
import type { Db } from '../db';
import { listLocalities } from './geography-repo';

/** Answers of one city search at most: enough to pick from, few enough to read. */
const CITIES_SHOWN = 20;

/**
 * Where a typed start can match a place: its whole folded name, or a later word of it ("mazowiecka"
 * in "ostrow mazowiecka", "kozle" in "kedzierzyn-kozle"). `place` is the place's alphabetical position.
 */
type Start = { text: string; place: number; laterWord: boolean };

/** One province's places in Polish alphabetical order (namesakes by powiat and gmina), and their starts sorted by text. */
type Province = { cities: City[]; starts: Start[] };

function provinceOf(cities: City[]): Province {
  const starts: Start[] = [];
  cities.forEach((city, place) => {
    const folded = foldPlaceName(city.name);
    starts.push({ text: folded, place, laterWord: false });
    for (let at = 1; at < folded.length; at++) {
      if (folded[at - 1] === ' ' || folded[at - 1] === '-') starts.push({ text: folded.slice(at), place, laterWord: true });
    }
  });
  starts.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return { cities, starts };
}

async function readRegister(db: Db): Promise<Map<string, Province>> {
  const localities = await listLocalities(db);
  const polish = new Intl.Collator('pl');
  localities.sort(
    ({ city: a }, { city: b }) =>
      polish.compare(a.name, b.name) ||
      polish.compare(a.district, b.district) ||
      polish.compare(a.municipality, b.municipality) ||
      a.id - b.id,
  );
  const citiesByProvince = new Map<string, City[]>();
  for (const { provinceTid, city } of localities) {
    const cities = citiesByProvince.get(provinceTid) ?? [];
    cities.push(city);
    citiesByProvince.set(provinceTid, cities);
  }
  return new Map([...citiesByProvince].map(([provinceTid, cities]) => [provinceTid, provinceOf(cities)]));
}

/** The first start not sorting before `typed`: every start beginning with `typed` follows it. */
function firstStartFrom(starts: Start[], typed: string): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]!.text < typed) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The exact name first, then names starting with what she typed, then a later word starting with it; alphabetically within each. */
function bestMatches({ cities, starts }: Province, typed: string): City[] {
  const rankOfPlace = new Map<number, number>();
  for (let at = firstStartFrom(starts, typed); at < starts.length && starts[at]!.text.startsWith(typed); at++) {
    const { text, place, laterWord } = starts[at]!;
    const rank = laterWord ? 2 : text === typed ? 0 : 1;
    rankOfPlace.set(place, Math.min(rank, rankOfPlace.get(place) ?? rank));
  }
  return [...rankOfPlace]
    .sort(([placeA, rankA], [placeB, rankB]) => rankA - rankB || placeA - placeB)
    .slice(0, CITIES_SHOWN)
    .map(([place]) => cities[place]!);
}

/**
 * The city search of the copy-order form, answered from memory: a patient's every pause in typing
 * is a search, and a sorted index of a province's name and word starts finds the matches in a few
 * microseconds where scanning them in the database took milliseconds (bench/city-search.ts).
 * The register changes only when a portal version with a newer data file starts
 * (register-loader.ts runs before the portal listens), so each process reads it once, at its
 * first search. An empty register is not kept: it is read again at the next search.
 */
export function createLocalityIndex(db: Db) {
  let register: Promise<Map<string, Province>> | undefined;

  const provinces = async (): Promise<Map<string, Province>> => {
    register ??= readRegister(db);
    try {
      const loaded = await register;
      if (loaded.size === 0) register = undefined;
      return loaded;
    } catch (error) {
      register = undefined;
      throw error;
    }
  };

  return {
    /**
     * Reads the register ahead of the first search, when the form asks for its provinces. A
     * failure is left to that search, which reads again and reports it.
     */
    prepare(): void {
      provinces().catch(() => undefined);
    },
    /** The best matches of what she typed among one province's places. */
    async search(provinceTid: string, typed: string): Promise<City[]> {
      const province = (await provinces()).get(provinceTid);
      return province ? bestMatches(province, foldPlaceName(typed)) : [];
    },
  };
}
