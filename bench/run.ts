import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measureHomeBundle, printBundleReport } from './bundle-budget';
import { benchResultPageInBrowser } from './browser-budgets';
import { benchHttp } from './http-budget';
import { measureIsoThroughput, printIsoThroughput } from './iso-throughput';
import { measureMarkerScan, printMarkerScan } from './marker-scan';
import { measureUploadThroughput, printUploadThroughput } from './upload-throughput';

/**
 * `npm run bench`: the performance budgets of the issues, printed as figures. Not a test: it
 * measures, prints, and exits non-zero only when a budget is exceeded.
 * BENCH_DATABASE_URL names the real PostgreSQL to compare with the embedded one
 * (default postgres://root@127.0.0.1:5432/test; "none" skips it).
 * BENCH_ONLY=vitals runs only the result page's budgets in Chromium (issue 4), to iterate on them;
 * BENCH_ONLY=marker-scan only the DICOM marker scan (issue 5). BENCH_CLIENT_DIR measures a client
 * built elsewhere (nothing is built then).
 */
const onlyVitals = process.env.BENCH_ONLY === 'vitals';
const onlyMarkerScan = process.env.BENCH_ONLY === 'marker-scan';
const clientDir = process.env.BENCH_CLIENT_DIR ?? 'dist/client';
if (!process.env.BENCH_CLIENT_DIR && (!existsSync(`${clientDir}/index.html`) || process.env.BENCH_BUILD !== 'no')) {
  execSync('npm run build', { stdio: 'ignore' });
}
const bundleOk = onlyVitals || onlyMarkerScan || printBundleReport(measureHomeBundle(clientDir));

const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const databases: { label: string; url?: string }[] = [{ label: 'embedded PGlite' }];
if (pgUrl !== 'none') databases.push({ label: `PostgreSQL (${new URL(pgUrl).host})`, url: pgUrl });
if (!onlyVitals && !onlyMarkerScan) await benchHttp(databases);
if (!onlyVitals && !onlyMarkerScan) printIsoThroughput(await measureIsoThroughput());
const uploadOk = onlyVitals || onlyMarkerScan || printUploadThroughput(await measureUploadThroughput());
const vitalsOk = onlyMarkerScan || (await benchResultPageInBrowser(clientDir));
const markerScanOk = onlyVitals || printMarkerScan(await measureMarkerScan(clientDir));

process.exit(bundleOk && vitalsOk && uploadOk && markerScanOk ? 0 : 1);
