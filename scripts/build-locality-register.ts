/**
 * Builds db/data/localities.tsv.gz, the locality register the copy-order form searches, from the
 * npm package `polskie-miejscowosci` 1.0.2 (github.com/jjbartek/polskie-miejscowosci): every town
 * and village of Poland (43,989, with province, powiat and gmina) taken from PRNG, the State
 * Register of Geographical Names, as of 2021-05-11. The package is not a dependency: the portal
 * ships the converted file and needs no network at run time. To refresh it:
 *
 *   npm pack polskie-miejscowosci && tar xzf polskie-miejscowosci-*.tgz
 *   npx tsx scripts/build-locality-register.ts package/data.json
 *
 * Licence: the package's LICENSE file is CC0 1.0, its package.json says CC-BY-1.0 and its README
 * CC BY 3.0; the portal credits the source (README, db/data/README.md) so it meets all three.
 * PRNG itself is public information of the Polish state (GUGiK).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { PROVINCE_CODES } from '../server/geography/provinces';

type SourceRow = { Name: string; Type: 'city' | 'village'; Province: string; District: string; Commune: string };

/** "Stęszew-gmina miejsko-wiejska" names the gmina "Stęszew"; the register's few other forms stay whole. */
function municipalityName(commune: string): string {
  return commune.replace(/-(gmina (miejska|wiejska|miejsko-wiejska)|obszar wiejski w gminie miejsko-wiejskiej)$/, '');
}

const source = process.argv[2];
if (!source) throw new Error('usage: tsx scripts/build-locality-register.ts <path to polskie-miejscowosci data.json>');
const rows = JSON.parse(readFileSync(source, 'utf8')) as SourceRow[];
const clean = (text: string) => text.replace(/[\t\n\r]/g, ' ').trim();
const lines = rows.map((row) => {
  const code = PROVINCE_CODES[row.Province];
  if (!code) throw new Error(`unknown province "${row.Province}"`);
  return [code, clean(row.Name), clean(row.District), clean(municipalityName(row.Commune)), row.Type].join('\t');
});
// Sorted, so a rebuild from the same data gives the same file (and the same checksum); the
// source lists three places twice (a gmina's town and its rural area both as the town).
const unique = [...new Set(lines)].sort();
const tsv = `${['province', 'name', 'district', 'municipality', 'kind'].join('\t')}\n${unique.join('\n')}\n`;
writeFileSync(new URL('../db/data/localities.tsv.gz', import.meta.url), gzipSync(tsv, { level: 9 }));
console.log(`${unique.length} localities in ${new Set(unique.map((line) => line.slice(0, 2))).size} provinces`);
