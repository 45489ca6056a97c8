import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Knex } from 'knex';
import { PROVINCE_CODES } from './provinces';

/** The register shipped with the portal (scripts/build-locality-register.ts, db/data/README.md). */
const REGISTER_FILE = new URL('../../db/data/localities.tsv.gz', import.meta.url);
/** Rows per INSERT: five bind values each, well under PostgreSQL's 65,535 per statement. */
const BATCH = 2_000;

type Locality = { province: string; name: string; district: string; municipality: string; kind: 'city' | 'village' };

function readRegister(file: Buffer): Locality[] {
  const [, ...lines] = gunzipSync(file).toString('utf8').trimEnd().split('\n');
  return lines.map((line) => {
    const [province, name, district, municipality, kind] = line.split('\t') as [string, string, string, string, Locality['kind']];
    return { province, name, district, municipality, kind };
  });
}

/**
 * Loads Poland's locality register into `provinces` and `cities`, once per data file: a start
 * whose file has the checksum already loaded does nothing. Rows are only added, never removed or
 * renumbered, since copy orders point at them; a place already there (same province, name,
 * powiat, gmina and kind) keeps its id. One transaction: a failed load leaves nothing half done.
 * Answers how many localities the register holds.
 */
export async function loadLocalityRegister(db: Knex, file: Buffer = readFileSync(REGISTER_FILE)): Promise<number> {
  const checksum = createHash('sha256').update(file).digest('hex');
  const loaded = await db('locality_register').where({ id: 1 }).first('checksum', 'localities');
  if (loaded?.checksum === checksum) return loaded.localities;
  const localities = readRegister(file);
  await db.transaction(async (trx) => {
    await trx('provinces')
      .insert(Object.entries(PROVINCE_CODES).map(([name, tId]) => ({ name, t_id: tId })))
      .onConflict('t_id')
      .ignore();
    const provinces: { id: number; t_id: string }[] = await trx('provinces').select('id', 't_id');
    const provinceIds = new Map(provinces.map((row) => [row.t_id, row.id]));
    // Staged first, so what follows is two set-based statements rather than 44,000 lookups.
    await trx.raw(
      'CREATE TEMP TABLE register_load (province_id integer, name text, pow_name text, community_name text, kind text) ON COMMIT DROP',
    );
    for (let start = 0; start < localities.length; start += BATCH) {
      const rows = localities.slice(start, start + BATCH).map((locality) => ({
        province_id: provinceIds.get(locality.province)!,
        name: locality.name,
        pow_name: locality.district,
        community_name: locality.municipality,
        kind: locality.kind,
      }));
      await trx('register_load').insert(rows);
    }
    // A place entered before the register (without a kind) becomes the register's own entry
    // when the match is unambiguous, instead of being listed twice.
    await trx.raw(`
      UPDATE cities c SET kind = r.kind FROM register_load r
       WHERE c.kind IS NULL AND c.province_id = r.province_id AND c.name = r.name
         AND c.pow_name = r.pow_name AND c.community_name = r.community_name
         AND NOT EXISTS (SELECT 1 FROM register_load o
                          WHERE o.province_id = r.province_id AND o.name = r.name AND o.pow_name = r.pow_name
                            AND o.community_name = r.community_name AND o.kind <> r.kind)`);
    await trx.raw(`
      INSERT INTO cities (province_id, name, pow_name, community_name, kind)
      SELECT province_id, name, pow_name, community_name, kind FROM register_load
      ON CONFLICT (province_id, name, pow_name, community_name, kind) DO NOTHING`);
    await trx('locality_register')
      .insert({ id: 1, checksum, localities: localities.length, loaded_at: new Date() })
      .onConflict('id')
      .merge();
  });
  return localities.length;
}
