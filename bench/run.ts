import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measureHomeBundle, printBundleReport } from './bundle-budget';
import { benchHttp } from './http-budget';
import { measureIsoThroughput, printIsoThroughput } from './iso-throughput';

/**
 * `npm run bench`: the performance budgets of the issues, printed as figures. Not a test: it
 * measures, prints, and exits non-zero only when a budget is exceeded.
 * BENCH_DATABASE_URL names the real PostgreSQL to compare with the embedded one
 * (default postgres://root@127.0.0.1:5432/test; "none" skips it).
 */
const clientDir = 'dist/client';
if (!existsSync(`${clientDir}/index.html`) || process.env.BENCH_BUILD !== 'no') {
  execSync('npm run build', { stdio: 'ignore' });
}
const bundleOk = printBundleReport(measureHomeBundle(clientDir));

const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const databases: { label: string; url?: string }[] = [{ label: 'embedded PGlite' }];
if (pgUrl !== 'none') databases.push({ label: `PostgreSQL (${new URL(pgUrl).host})`, url: pgUrl });
await benchHttp(databases);
printIsoThroughput(await measureIsoThroughput());

process.exit(bundleOk ? 0 : 1);
