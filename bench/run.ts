import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { measureHomeBundle, printBundleReport } from './bundle-budget';
import { benchResultPageInBrowser } from './browser-budgets';
import { benchCheckoutStart } from './checkout-start';
import { benchCitySearch } from './city-search';
import { benchHttp } from './http-budget';
import { measureIsoThroughput, printIsoThroughput } from './iso-throughput';
import { measureLighthouse, printLighthouse } from './lighthouse';
import { measureMarkerScan, printMarkerScan } from './marker-scan';
import { measureUploadThroughput, printUploadThroughput } from './upload-throughput';
import { measureApiPeer, printApiPeer } from './peers/api';
import { measureDiscPeers, printDiscPeers } from './peers/disc';
import { measureIngestPeers, printIngestPeers } from './peers/ingest';
import { measureViewer, printViewer } from './viewer';

/**
 * `npm run bench`: the performance budgets of the issues, printed as figures. Not a test: it
 * measures, prints, and exits non-zero only when a budget is exceeded.
 * BENCH_DATABASE_URL names the real PostgreSQL to compare with the embedded one
 * (default postgres://root@127.0.0.1:5432/test; "none" skips it).
 * BENCH_ONLY=<part> runs one part, to iterate on it: bundle, http, city-search and checkout (issue 12), iso,
 * upload (the patient upload, DICOMweb STOW-RS and the resumable tus upload of the same folder, issues 5 and 15), vitals (the result page's budgets in Chromium, issue 4), lighthouse (issue 16: Lighthouse 13 itself on every public page and the signed-in result page), marker-scan (the upload page's marker scan against minimal pages, and the pick to the first byte at the server, issues 5 and 15), viewer (issue 15: the first drawn view of a 50 MB mammogram, the viewer chunk's size), peers (issue 16: the portal against other programs doing the same work on this machine: the profile call against a bare Express app, DICOM ingest against Orthanc, the disc image against dcmmkdir + xorriso). BENCH_CLIENT_DIR measures a client
 * built elsewhere (nothing is built then).
 */
const clientDir = process.env.BENCH_CLIENT_DIR ?? 'dist/client';
if (!process.env.BENCH_CLIENT_DIR && (!existsSync(`${clientDir}/index.html`) || process.env.BENCH_BUILD !== 'no')) {
  execSync('npm run build', { stdio: 'ignore' });
}
const only = (name: string) => process.env.BENCH_ONLY === undefined || process.env.BENCH_ONLY === name;
const bundleOk = !only('bundle') || printBundleReport(measureHomeBundle(clientDir));

const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const databases: { label: string; url?: string }[] = [{ label: 'embedded PGlite' }];
if (pgUrl !== 'none') databases.push({ label: `PostgreSQL (${new URL(pgUrl).host})`, url: pgUrl });
if (only('http')) await benchHttp(databases);
const citySearchOk = !only('city-search') || (await benchCitySearch(databases));
const checkoutOk = !only('checkout') || (await benchCheckoutStart(databases));
if (only('iso')) printIsoThroughput(await measureIsoThroughput());
const uploadOk = !only('upload') || printUploadThroughput(await measureUploadThroughput(undefined, undefined, databases[1]?.url));
const vitalsOk = !only('vitals') || (await benchResultPageInBrowser(clientDir));
const lighthouseOk = !only('lighthouse') || printLighthouse(await measureLighthouse(clientDir));
const markerScanOk = !only('marker-scan') || printMarkerScan(await measureMarkerScan(clientDir));
const viewerOk = !only('viewer') || printViewer(await measureViewer(clientDir));
// Peers (issue 16): the same work done by another program on this machine, side by side.
// BENCH_PEERS=api,ingest,disc picks some of them, to iterate on one.
const peer = (name: string) => only('peers') && (process.env.BENCH_PEERS?.split(',').includes(name) ?? true);
const apiPeerOk = !peer('api') || pgUrl === 'none' || printApiPeer(await measureApiPeer(pgUrl));
const ingestPeerOk = !peer('ingest') || printIngestPeers(await measureIngestPeers(pgUrl === 'none' ? undefined : pgUrl));
const discPeerOk = !peer('disc') || printDiscPeers(await measureDiscPeers(pgUrl === 'none' ? undefined : pgUrl));

const budgetsOk = [bundleOk, citySearchOk, checkoutOk, vitalsOk, lighthouseOk, uploadOk, markerScanOk, viewerOk];
const peersOk = [apiPeerOk, ingestPeerOk, discPeerOk];
process.exit([...budgetsOk, ...peersOk].every(Boolean) ? 0 : 1);
