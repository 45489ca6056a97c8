import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { UploadLimits, UploadOutcome } from '../common/types/upload';
import { writePart10 } from '../server/dicom/part10';
import { MG_FOR_PRESENTATION_SOP_CLASS } from '../server/dicom/synthetic-mg';

/**
 * Issue 5 "Budgets": a DICOM folder uploaded over loopback to the real app (a signed-in patient,
 * CSRF, batches as the browser forms them) against the same multipart bodies sent to a minimal
 * Node server that only writes each body to disk; and the app server's peak memory, which must
 * not grow with the size of the upload (files stream to disk). Each server runs in a process of
 * its own, so the client never shares its event loop and the RSS read is the server's alone.
 */

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const ROWS = 2048;
const COLUMNS = 1280; // 16-bit pixels: 5 MB per file
/** Room for each file's multipart headers when a batch is filled up to the request limit. */
const PART_OVERHEAD_BYTES = 1024;
/** Growth allowed between the small and the large upload before memory counts as growing with it. */
const MEMORY_SLACK_MB = 64;
const PATIENT = { email: 'bench.upload@example.com', password: 'Bench!Upload1' };
const SELF = fileURLToPath(import.meta.url);

/** `cpuSecondsPerGB`: the server's own CPU time (user + system), steadier than wall time on a busy machine. */
type UploadRun = { bytes: number; seconds: number; mbps: number; cpuSecondsPerGB: number; peakRssGrowthMB: number };
export type UploadThroughput = { small: UploadRun; large: UploadRun; plain: UploadRun; ratio: number; memoryFlat: boolean };

type Server = { url: string; pid: number };
type Session = { cookie: string; token: string };

export async function measureUploadThroughput(largeBytes = GB, smallBytes = GB / 4): Promise<UploadThroughput> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'upload-bench-'));
  const children: ChildProcess[] = [];
  try {
    const { files, fileBytes } = writeFolder(path.join(workDir, 'folder'), smallBytes + largeBytes);
    const smallFiles = files.slice(0, Math.round(smallBytes / fileBytes));
    const largeFiles = files.slice(smallFiles.length);

    const app = await startServer('--serve-app', path.join(workDir, 'app-data'), children);
    const session = await signIn(app.url);
    const limits = (await (await fetch(`${app.url}/api/dicom/limits`, { headers: { cookie: session.cookie } })).json()) as UploadLimits;
    const small = await timedUpload(app, batchesOf(smallFiles, fileBytes, limits), session);
    const large = await timedUpload(app, batchesOf(largeFiles, fileBytes, limits), session);

    const plainServer = await startServer('--serve-plain', path.join(workDir, 'plain-data'), children);
    const plain = await timedUpload(plainServer, batchesOf(largeFiles, fileBytes, limits), session);
    return {
      small,
      large,
      plain,
      ratio: large.mbps / plain.mbps,
      memoryFlat: large.peakRssGrowthMB <= small.peakRssGrowthMB + MEMORY_SLACK_MB,
    };
  } finally {
    for (const child of children) await stopServer(child);
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Prints the figures; answers whether the memory budget held. */
export function printUploadThroughput(result: UploadThroughput): boolean {
  const gb = (run: UploadRun) => (run.bytes / GB).toFixed(2);
  console.log(
    `DICOM upload: ${gb(result.large)} GB at ${result.large.mbps.toFixed(0)} MB/s ` +
      `(plain Node upload of the same bodies: ${result.plain.mbps.toFixed(0)} MB/s, ratio ${result.ratio.toFixed(2)}; ` +
      `server CPU ${result.large.cpuSecondsPerGB.toFixed(1)} s/GB, plain ${result.plain.cpuSecondsPerGB.toFixed(1)} s/GB); ` +
      `server peak memory growth ${result.small.peakRssGrowthMB.toFixed(0)} MB for ${gb(result.small)} GB, ` +
      `${result.large.peakRssGrowthMB.toFixed(0)} MB for ${gb(result.large)} GB ` +
      `(${result.memoryFlat ? 'does not grow with the upload' : `grows with the upload by more than ${MEMORY_SLACK_MB} MB: over budget`})`,
  );
  return result.memoryFlat;
}

/**
 * Valid DICOM files of 5 MB with distinct SOP instance UIDs: dcmjs writes one, the others are
 * copies with the UID's bytes replaced by another UID of the same length.
 */
function writeFolder(directory: string, totalBytes: number): { files: string[]; fileBytes: number } {
  mkdirSync(directory, { recursive: true });
  const uidOf = (n: number) => `2.25.${(10n ** 38n + BigInt(n)).toString()}`;
  const template = Buffer.from(syntheticImage(uidOf(0)));
  const templateUid = Buffer.from(uidOf(0), 'latin1');
  const offsets: number[] = [];
  for (let at = template.indexOf(templateUid); at !== -1; at = template.indexOf(templateUid, at + 1)) offsets.push(at);
  const files: string[] = [];
  for (let n = 1; files.length * template.length < totalBytes; n++) {
    const uid = Buffer.from(uidOf(n), 'latin1');
    for (const offset of offsets) uid.copy(template, offset);
    const file = path.join(directory, `IM${String(n).padStart(5, '0')}`);
    writeFileSync(file, template);
    files.push(file);
  }
  return { files, fileBytes: template.length };
}

function syntheticImage(sopInstanceUid: string): Uint8Array {
  const pixels = new Uint16Array(ROWS * COLUMNS).map((_, i) => (i * 7) & 0xfff);
  const dataset = {
    SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
    SOPInstanceUID: sopInstanceUid,
    StudyInstanceUID: '2.25.1000',
    SeriesInstanceUID: '2.25.1001',
    Modality: 'MG',
    StudyDate: '20261006',
    Rows: ROWS,
    Columns: COLUMNS,
    BitsAllocated: 16,
    BitsStored: 12,
    HighBit: 11,
    PixelRepresentation: 0,
    SamplesPerPixel: 1,
    PhotometricInterpretation: 'MONOCHROME2',
    PixelData: [pixels.buffer],
    _vrMap: { PixelData: 'OW' },
  };
  return writePart10(dataset, MG_FOR_PRESENTATION_SOP_CLASS, sopInstanceUid);
}

/** As the browser forms batches: whole files, within the request's byte and file limits. */
function batchesOf(files: string[], fileBytes: number, limits: UploadLimits): string[][] {
  const perBatch = Math.max(1, Math.min(limits.maxFilesPerRequest, Math.floor(limits.maxRequestBytes / (fileBytes + PART_OVERHEAD_BYTES))));
  const batches: string[][] = [];
  for (let at = 0; at < files.length; at += perBatch) batches.push(files.slice(at, at + perBatch));
  return batches;
}

/** Sends the batches one after another while sampling the server's resident memory. */
async function timedUpload(server: Server, batches: string[][], session: Session): Promise<UploadRun> {
  const baseline = rssOf(server.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 20);
  let bytes = 0;
  const cpuBefore = cpuSecondsOf(server.pid);
  const started = process.hrtime.bigint();
  try {
    for (const batch of batches) {
      const { status, body } = await postMultipart(`${server.url}/api/dicom`, batch, session);
      const outcome = JSON.parse(body) as Partial<UploadOutcome>;
      // The plain server stores bodies without reading them; the app must have stored every file.
      const complete = outcome.stored === undefined || outcome.stored === batch.length;
      if (status !== 200 || !complete) throw new Error(`upload batch failed: ${status} ${body}`);
      bytes += batch.reduce((sum, file) => sum + statSync(file).size, 0);
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSecondsPerGB = (cpuSecondsOf(server.pid) - cpuBefore) / (bytes / GB);
  return { bytes, seconds, mbps: bytes / MB / seconds, cpuSecondsPerGB, peakRssGrowthMB: (peak - baseline) / MB };
}

/**
 * The multipart body a browser sends for a FormData of files (field `dicoms`), streamed from disk
 * in 1 MB reads with its exact Content-Length.
 */
async function postMultipart(url: string, files: string[], session: Session): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomUUID()}`;
  const head = (file: string) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="dicoms"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = files.reduce((sum, file) => sum + head(file).length + statSync(file).size + 2, 0) + tail.length;
  async function* body() {
    for (const file of files) {
      yield head(file);
      yield* createReadStream(file, { highWaterMark: MB });
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  const req = request(url, {
    method: 'POST',
    headers: {
      cookie: session.cookie,
      'x-csrf-token': session.token,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': length,
    },
  });
  const answer = once(req, 'response') as Promise<[IncomingMessage]>;
  await pipeline(Readable.from(body()), req);
  const [response] = await answer;
  let text = '';
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode ?? 0, body: text };
}

/** CPU time another process has used so far, from /proc (Linux; clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident memory of another process, from /proc (Linux). */
function rssOf(pid: number): number {
  const kilobytes = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kilobytes) * 1024;
}

async function signIn(url: string): Promise<Session> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const anonymousCookie = csrf.headers.get('set-cookie')!.split(';')[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${url}/api/auth/portal/login`, {
    method: 'POST',
    headers: { cookie: anonymousCookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({
      login: PATIENT.email,
      password: createHash('sha256').update(PATIENT.password).digest('hex'),
      portalTerms: true,
      policyTerms: true,
    }),
  });
  if (!login.ok) throw new Error(`bench login failed: ${login.status}`);
  const { csrfToken: token } = (await login.json()) as { csrfToken: string };
  return { cookie: login.headers.get('set-cookie')!.split(';')[0]!, token };
}

/** This file again, as a server process; it prints its port on stdout once listening. */
async function startServer(mode: '--serve-app' | '--serve-plain', dataDir: string, children: ChildProcess[]): Promise<Server> {
  // Node itself with tsx's loader, not `npx tsx`: a wrapper would not pass SIGTERM on.
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, mode, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const port = Number(line.toString().trim());
  if (!port) throw new Error(`${mode} did not start: ${line.toString()}`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid! };
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** The real app on an in-memory PGlite with one patient, storing under `dataDir`. */
async function serveApp(dataDir: string): Promise<void> {
  const { startEmbeddedDatabase } = await import('../db/embedded');
  const { createApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const { createDb, migrate } = await import('../server/db');
  const { createLogger } = await import('../server/lib/logger');
  const { insertAccount, insertPerson } = await import('../tests/support/seed-minimal');
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
    ACCESS_CODE_SECRET: 'bench-access-code-secret-0123456789abcdef',
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'false',
    DATA_DIR: dataDir,
  });
  const embedded = await startEmbeddedDatabase();
  const db = createDb({ url: embedded.url, poolMax: embedded.poolMax });
  await migrate(db);
  const personId = await insertPerson(db, { firstName: 'Bench', lastName: 'Upload', birthAt: '1970-01-01' });
  await insertAccount(db, personId, PATIENT);
  const app = createApp({ config, db, logger: createLogger(config) });
  const server = app.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    void app
      .close()
      .then(() => db.destroy())
      .then(() => embedded.stop())
      .then(() => process.exit(0));
  });
}

/** The baseline: every request body written to a file, then a small JSON answer. */
function servePlain(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const server = createServer((req, res) => {
    void pipeline(req, createWriteStream(path.join(dataDir, randomUUID()))).then(() => {
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
  });
  server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
  process.once('SIGTERM', () => {
    server.close();
    process.exit(0);
  });
}

const [mode, dataDir] = process.argv.slice(2);
if (mode === '--serve-app' && dataDir) await serveApp(dataDir);
else if (mode === '--serve-plain' && dataDir) servePlain(dataDir);
