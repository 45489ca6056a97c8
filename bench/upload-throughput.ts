import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  closeSync,
  createWriteStream,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { DefaultHttpStack, Upload, type UploadOptions } from 'tus-js-client';
import type { UploadLimits, UploadOutcome } from '../common/types/upload';
import { median } from './median';
import { writePart10 } from '../server/dicom/part10';
import { MG_FOR_PRESENTATION_SOP_CLASS } from '../server/dicom/synthetic-mg';
import { cookiesSetBy } from './cookies';

/**
 * Issue 5 "Budgets": a DICOM folder uploaded over loopback to the real app (a signed-in patient,
 * CSRF, batches as the browser forms them) against the same multipart bodies sent to a minimal
 * Node server that only writes each body to disk; and the app server's peak memory, which must
 * not grow with the size of the upload (files stream to disk). The same folder is then ingested
 * by DICOMweb STOW-RS (a provider's API key, multipart/related, the same batches), whose memory
 * must not grow either. Each server runs in a process of its own, so the client never shares its
 * event loop and the RSS read is the server's alone.
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
/**
 * Issue 15: the resumable upload within 10 % of the multipart one, on the same folder. Each
 * comparison round uploads it once each way, in alternating order, each time as another patient
 * (a patient's second upload of the same images would be duplicates, stored once).
 */
const RESUMABLE_RATIO_BUDGET = 0.9;
/** Issue 16: the patient upload at least 0.9 of a bare Node server storing the same bodies. */
const PLAIN_RATIO_BUDGET = 0.9;
const COMPARISON_ROUNDS = Number(process.env.BENCH_UPLOAD_ROUNDS ?? 3);
export const comparisonPatient = (round: number, way: 'multipart' | 'resumable' | 'against-plain') => ({
  email: `bench.${way}.${round}@example.com`,
  password: `Bench!${way}${round}`,
});
/** As the upload page sends (client/features/upload/tus-transfer.ts CHUNK_BYTES, use-resumable-upload.ts FILES_IN_FLIGHT). */
const TUS_CHUNK_BYTES = 8 * 1024 * 1024;
const TUS_FILES_IN_FLIGHT = 4;
/** The resumable upload's small and large runs (the memory check), as a patient of its own. */
const RESUMABLE_PATIENT = { email: 'bench.resumable@example.com', password: 'Bench!Resumable1' };
/** Every file of the folder names this screening, of another person than PATIENT, for STOW-RS. */
const ACCESSION_NUMBER = 'BENCH0001';
/** How its owner signs in to the result portal (the disc image bench asks for its disc so). */
export const STOW_SCREENING_GUEST = { accessCode: 'BenchSt1', birthAt: '1971-01-01' };
const STOW_PATH = '/api/provider/v1/dicomweb/studies';
/** ReferencedSOPSequence (0008,1199) of a STOW-RS answer: the instances stored. */
const REFERENCED_SOP_SEQUENCE = '00081199';
const SELF = fileURLToPath(import.meta.url);

/** `cpuSecondsPerGB`: the server's own CPU time (user + system), steadier than wall time on a busy machine. */
export type UploadRun = { bytes: number; seconds: number; mbps: number; cpuSecondsPerGB: number; peakRssGrowthMB: number };
type IngestRuns = { small: UploadRun; large: UploadRun; memoryFlat: boolean };
/**
 * The same folder sent both ways in interleaved rounds, on one database; `ratio` is resumable over
 * multipart, of the median MB/s.
 */
type Comparison = { database: string; multipart: UploadRun[]; resumable: UploadRun[]; ratio: number };
/**
 * The patient upload and a bare Node server storing the same bodies, in interleaved rounds on one
 * database; `ratio` is the upload's median MB/s over the bare server's.
 */
type PlainComparison = { database: string; upload: UploadRun[]; plain: UploadRun[]; ratio: number };
export type UploadThroughput = IngestRuns & {
  againstPlain: PlainComparison;
  stow: IngestRuns;
  resumable: IngestRuns;
  /** On the embedded PGlite, then on PostgreSQL when one was given. */
  comparisons: Comparison[];
};

/** `key`: the app's API key with images:write, for STOW-RS. */
export type Server = { url: string; pid: number; key?: string };
export type Session = { cookie: string; token: string };
/**
 * How a batch is sent: where, with which request headers, as which multipart type, each part
 * with which headers; and whether the answer says every file of the batch was stored.
 */
type Ingest = {
  path: string;
  headers: Record<string, string>;
  multipartType: string;
  partHeaders: (file: string) => string;
  storedAll: (status: number, body: string, files: number) => boolean;
  /**
   * A connection of its own for each request: for a caller that pauses longer than the server's
   * keep-alive timeout between requests, where a reused socket may be closed just as it is used.
   */
  freshConnection?: boolean;
};

/**
 * `postgresUrl`: a PostgreSQL server on which the resumable and the multipart upload are compared
 * again (in a schema of their own, dropped afterwards), as the portal runs in production.
 */
export async function measureUploadThroughput(largeBytes = GB, smallBytes = GB / 4, postgresUrl?: string): Promise<UploadThroughput> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'upload-bench-'));
  const children: ChildProcess[] = [];
  try {
    const { files, fileBytes } = writeFolder(path.join(workDir, 'folder'), smallBytes + largeBytes);
    const smallFiles = files.slice(0, Math.round(smallBytes / fileBytes));
    const largeFiles = files.slice(smallFiles.length);

    const app = await startServer('--serve-app', path.join(workDir, 'app-data'), children);
    const session = await signIn(app.url);
    const limits = (await (await fetch(`${app.url}/api/dicom/limits`, { headers: { cookie: session.cookie } })).json()) as UploadLimits;
    const [small, large] = [batchesOf(smallFiles, fileBytes, limits), batchesOf(largeFiles, fileBytes, limits)];
    const upload = multipartSender(patientUpload(session));
    const uploadRuns = await timedRuns(app, upload, small, large);
    // The same batches again, into another person's screening (found by the files' accession number).
    const stow = await timedRuns(app, multipartSender(stowRs(app.key!)), small, large);

    // tus as the upload page sends it, small then large (does its memory grow with the upload?).
    const resumable = await timedRuns(app, tusUpload(await signIn(app.url, RESUMABLE_PATIENT)), smallFiles, largeFiles);
    const firstRound = { multipart: uploadRuns.large, resumable: resumable.large };
    const comparisons = [await compareWays('embedded PGlite', app, large, largeFiles, firstRound)];
    let production = { database: 'embedded PGlite', app };
    if (postgresUrl) {
      const onPostgres = await startServer('--serve-app', path.join(workDir, 'postgres-data'), children, postgresUrl);
      production = { database: `PostgreSQL (${new URL(postgresUrl).host})`, app: onPostgres };
      comparisons.push(await compareWays(production.database, onPostgres, large, largeFiles));
    }

    const plainServer = await startServer('--serve-plain', path.join(workDir, 'plain-data'), children);
    const againstPlain = await compareWithPlain(production.database, production.app, plainServer, large);
    return { ...uploadRuns, againstPlain, stow, resumable, comparisons };
  } finally {
    for (const child of children) await stopServer(child);
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * COMPARISON_ROUNDS rounds of the same folder sent as multipart batches and as tus uploads, each
 * into a patient of its own, in alternating order (a machine that slows down mid-way favours
 * neither); `firstRound`: runs already made on this server, counted as the first round.
 */
async function compareWays(
  database: string,
  app: Server,
  batches: string[][],
  files: string[],
  firstRound?: { multipart: UploadRun; resumable: UploadRun },
): Promise<Comparison> {
  const comparison: Comparison = { database, multipart: [], resumable: [], ratio: 0 };
  if (firstRound) {
    comparison.multipart.push(firstRound.multipart);
    comparison.resumable.push(firstRound.resumable);
  }
  for (let round = firstRound ? 1 : 0; round < COMPARISON_ROUNDS; round++) {
    const patient = async (way: 'multipart' | 'resumable') => signIn(app.url, comparisonPatient(round, way));
    const multipartRun = async () =>
      comparison.multipart.push(await timedUpload(app, batches, multipartSender(patientUpload(await patient('multipart')))));
    const resumableRun = async () => comparison.resumable.push(await timedUpload(app, files, tusUpload(await patient('resumable'))));
    await inTurn(round, multipartRun, resumableRun);
  }
  comparison.ratio = ratioOfMedianRates(comparison.resumable, comparison.multipart);
  return comparison;
}

/** Round `round` of two ways measured in turn: each goes first every other round, so a machine that slows down mid-way favours neither. */
async function inTurn(round: number, one: () => Promise<unknown>, other: () => Promise<unknown>): Promise<void> {
  if (round % 2) await other().then(one);
  else await one().then(other);
}

const ratioOfMedianRates = (runs: UploadRun[], against: UploadRun[]) =>
  median(runs.map((run) => run.mbps)) / median(against.map((run) => run.mbps));

/**
 * COMPARISON_ROUNDS rounds of the patient upload (each into a patient of its own) and of the bare
 * Node server receiving the same batches, in alternating order, where the portal runs in
 * production (PostgreSQL when given). Issue 16: the upload at least 0.9 of the bare server.
 */
async function compareWithPlain(database: string, app: Server, plainServer: Server, batches: string[][]): Promise<PlainComparison> {
  const comparison: PlainComparison = { database, upload: [], plain: [], ratio: 0 };
  for (let round = 0; round < COMPARISON_ROUNDS; round++) {
    const uploadRun = async () =>
      comparison.upload.push(
        await timedUpload(app, batches, multipartSender(patientUpload(await signIn(app.url, comparisonPatient(round, 'against-plain'))))),
      );
    // The bare server checks no session: any sender's batches are bodies to store.
    const plainRun = async () =>
      comparison.plain.push(await timedUpload(plainServer, batches, multipartSender(patientUpload({ cookie: '', token: '' }))));
    await inTurn(round, uploadRun, plainRun);
  }
  comparison.ratio = ratioOfMedianRates(comparison.upload, comparison.plain);
  return comparison;
}

/** Prints the figures of the upload, STOW-RS and the resumable upload; answers whether the memory, bare-server and resumable budgets held. */
export function printUploadThroughput(result: UploadThroughput): boolean {
  const gb = (run: UploadRun) => (run.bytes / GB).toFixed(2);
  const memory = (runs: IngestRuns, what: string) =>
    `server peak memory growth ${runs.small.peakRssGrowthMB.toFixed(0)} MB for ${gb(runs.small)} GB, ` +
    `${runs.large.peakRssGrowthMB.toFixed(0)} MB for ${gb(runs.large)} GB ` +
    `(${runs.memoryFlat ? `does not grow with the ${what}` : `grows with the ${what} by more than ${MEMORY_SLACK_MB} MB: over budget`})`;
  const spread = (runs: UploadRun[], value: (run: UploadRun) => number, digits: number) => {
    const values = runs.map(value);
    return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
  };
  const { againstPlain } = result;
  const plainOk = againstPlain.ratio >= PLAIN_RATIO_BUDGET;
  console.log(
    `DICOM upload: ${gb(result.large)} GB at ${result.large.mbps.toFixed(0)} MB/s on embedded PGlite; ${memory(result, 'upload')}`,
  );
  console.log(
    `  on ${againstPlain.database}, ${againstPlain.upload.length} interleaved rounds against a plain Node server storing the same bodies: ` +
      `upload median ${spread(againstPlain.upload, (run) => run.mbps, 0)} MB/s, plain ${spread(againstPlain.plain, (run) => run.mbps, 0)} MB/s, ` +
      `ratio ${againstPlain.ratio.toFixed(2)} (budget at least ${PLAIN_RATIO_BUDGET}: ${plainOk ? 'within' : 'OVER'}); ` +
      `server CPU ${spread(againstPlain.upload, (run) => run.cpuSecondsPerGB, 1)} s/GB against ${spread(againstPlain.plain, (run) => run.cpuSecondsPerGB, 1)}`,
  );
  const { stow } = result;
  console.log(
    `DICOMweb STOW-RS ingest: ${gb(stow.large)} GB at ${stow.large.mbps.toFixed(0)} MB/s ` +
      `(patient upload of the same corpus: ${result.large.mbps.toFixed(0)} MB/s); ` +
      `server CPU ${stow.large.cpuSecondsPerGB.toFixed(1)} s/GB; ` +
      memory(stow, 'ingest'),
  );
  const { resumable, comparisons } = result;
  // The budget holds where the portal runs in production: on PostgreSQL when it was measured. The
  // embedded PGlite runs every statement on the server's own thread, through one connection, and
  // a tus file costs a few statements that a multipart batch shares among its files.
  const budgeted = comparisons.at(-1)!;
  console.log(
    `Resumable (tus) upload, ${TUS_FILES_IN_FLIGHT} files at once, ${TUS_CHUNK_BYTES / MB} MiB chunks, the first in the creating POST: ` +
      `${gb(resumable.large)} GB; ${memory(resumable, 'upload')}`,
  );
  for (const comparison of comparisons) {
    const verdict =
      comparison === budgeted
        ? `budget at least ${RESUMABLE_RATIO_BUDGET}: ${comparison.ratio >= RESUMABLE_RATIO_BUDGET ? 'within' : 'OVER'}`
        : 'for information: the budget applies to PostgreSQL';
    console.log(
      `  on ${comparison.database}, ${comparison.resumable.length} interleaved rounds against multipart: ` +
        `tus median ${spread(comparison.resumable, (run) => run.mbps, 0)} MB/s, multipart median ${spread(comparison.multipart, (run) => run.mbps, 0)} MB/s, ` +
        `ratio ${comparison.ratio.toFixed(2)} (${verdict}); ` +
        `server CPU ${spread(comparison.resumable, (run) => run.cpuSecondsPerGB, 1)} s/GB against ${spread(comparison.multipart, (run) => run.cpuSecondsPerGB, 1)}`,
    );
  }
  const ratioOk = budgeted.ratio >= RESUMABLE_RATIO_BUDGET;
  return result.memoryFlat && stow.memoryFlat && resumable.memoryFlat && ratioOk && plainOk;
}

/**
 * Valid DICOM files of 5 MB with distinct SOP instance UIDs and the accession number of the
 * STOW-RS screening: dcmjs writes one, the others are copies with the UID's bytes replaced by
 * another UID of the same length.
 */
export function writeFolder(
  directory: string,
  totalBytes: number,
  { rows = ROWS, columns = COLUMNS, firstUid = 1 } = {},
): { files: string[]; fileBytes: number } {
  mkdirSync(directory, { recursive: true });
  const uidOf = (n: number) => `2.25.${(10n ** 38n + BigInt(n)).toString()}`;
  const template = Buffer.from(syntheticImage(uidOf(0), rows, columns));
  const templateUid = Buffer.from(uidOf(0), 'latin1');
  const offsets: number[] = [];
  for (let at = template.indexOf(templateUid); at !== -1; at = template.indexOf(templateUid, at + 1)) offsets.push(at);
  const files: string[] = [];
  for (let n = firstUid; files.length * template.length < totalBytes; n++) {
    const uid = Buffer.from(uidOf(n), 'latin1');
    for (const offset of offsets) uid.copy(template, offset);
    const file = path.join(directory, `IM${String(n).padStart(5, '0')}`);
    writeFileSync(file, template);
    files.push(file);
  }
  return { files, fileBytes: template.length };
}

function syntheticImage(sopInstanceUid: string, rows: number, columns: number): Uint8Array {
  const pixels = new Uint16Array(rows * columns).map((_, i) => (i * 7) & 0xfff);
  const dataset = {
    SOPClassUID: MG_FOR_PRESENTATION_SOP_CLASS,
    SOPInstanceUID: sopInstanceUid,
    StudyInstanceUID: '2.25.1000',
    SeriesInstanceUID: '2.25.1001',
    Modality: 'MG',
    StudyDate: '20261006',
    StudyTime: '104000',
    // What a DICOMDIR's patient, study and image records need (dcmmkdir refuses files without them).
    PatientName: 'Bench^Upload',
    PatientID: 'BENCH',
    StudyID: '1',
    SeriesNumber: '1',
    InstanceNumber: '1',
    AccessionNumber: ACCESSION_NUMBER,
    Rows: rows,
    Columns: columns,
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
export function batchesOf(files: string[], fileBytes: number, limits: UploadLimits): string[][] {
  const perBatch = Math.max(1, Math.min(limits.maxFilesPerRequest, Math.floor(limits.maxRequestBytes / (fileBytes + PART_OVERHEAD_BYTES))));
  const batches: string[][] = [];
  for (let at = 0; at < files.length; at += perBatch) batches.push(files.slice(at, at + perBatch));
  return batches;
}

/** A small run then a large one; the memory is flat when the large one grows it no more than the small one (plus slack). */
async function timedRuns<Batch>(server: Server, ingest: Sender<Batch>, small: Batch[], large: Batch[]): Promise<IngestRuns> {
  const smallRun = await timedUpload(server, small, ingest);
  const largeRun = await timedUpload(server, large, ingest);
  return { small: smallRun, large: largeRun, memoryFlat: largeRun.peakRssGrowthMB <= smallRun.peakRssGrowthMB + MEMORY_SLACK_MB };
}

/** The patient's upload, as the browser sends a FormData of files (field `dicoms`). */
export function patientUpload(session: Session): Ingest {
  return {
    path: '/api/dicom',
    headers: { cookie: session.cookie, 'x-csrf-token': session.token },
    multipartType: 'multipart/form-data',
    partHeaders: (file) =>
      `Content-Disposition: form-data; name="dicoms"; filename="${path.basename(file)}"\r\nContent-Type: application/octet-stream\r\n`,
    storedAll: (status, body, files) => {
      const outcome = JSON.parse(body) as Partial<UploadOutcome>;
      // The plain server stores bodies without reading them; the app must have stored every file.
      return status === 200 && (outcome.stored === undefined || outcome.stored === files);
    },
  };
}

/** A PACS's STOW-RS request (PS3.18 10.5): one application/dicom part per file; 200 only when all are stored. */
export function stowRs(key: string, stowPath = STOW_PATH): Ingest {
  return {
    path: stowPath,
    headers: { authorization: `Bearer ${key}`, accept: 'application/dicom+json' },
    multipartType: 'multipart/related; type="application/dicom"',
    partHeaders: () => 'Content-Type: application/dicom\r\n',
    storedAll: (status, body, files) => {
      const answer = JSON.parse(body) as Record<string, { Value?: unknown[] } | undefined>;
      return status === 200 && answer[REFERENCED_SOP_SEQUENCE]?.Value?.length === files;
    },
  };
}

/** Sends everything of a run to the server and answers how many bytes of files it sent. */
export type Sender<Batch> = (serverUrl: string, batches: Batch[]) => Promise<number>;

/** Multipart: the batches one after another, each one request. */
export function multipartSender(ingest: Ingest): Sender<string[]> {
  return async (serverUrl, batches) => {
    let bytes = 0;
    for (const batch of batches) {
      const { status, body } = await postMultipart(serverUrl, batch, ingest);
      if (!ingest.storedAll(status, body, batch.length)) throw new Error(`${ingest.path} batch failed: ${status} ${body.slice(0, 2000)}`);
      bytes += batch.reduce((sum, file) => sum + statSync(file).size, 0);
    }
    return bytes;
  };
}

/**
 * tus-js-client's Node HTTP stack with a request buffer the size of a chunk. With Node's default
 * (16 KB) it writes each chunk to the socket 16 KB at a time, each write waiting for the last to
 * drain: this sender then took about 1.6 times the CPU per GB of the multipart sender (1.3 times
 * with this), on the 2 cores the servers use. A browser hands an upload body to the network in
 * large writes.
 */
const SOCKET_SIZED_WRITES = new DefaultHttpStack({ highWaterMark: TUS_CHUNK_BYTES });

/**
 * tus-js-client in Node, as the upload page uses it in the browser: TUS_FILES_IN_FLIGHT files at
 * once, each created with its first TUS_CHUNK_BYTES in the POST and the rest in PATCHes of that
 * size; every file must come back stored. No retries: a failure fails the bench.
 */
function tusUpload(session: Session): Sender<string> {
  const sendOne = (serverUrl: string, file: string) =>
    new Promise<void>((resolve, reject) => {
      const upload = new Upload(Buffer.alloc(0), {
        // The file comes from fileReader; the (empty) input only keeps tus-js-client's own reader away.
        fileReader: fileOnDisk(file),
        endpoint: `${serverUrl}/api/dicom/uploads`,
        metadata: { name: path.basename(file) },
        headers: { cookie: session.cookie, 'X-CSRF-Token': session.token },
        chunkSize: TUS_CHUNK_BYTES,
        httpStack: SOCKET_SIZED_WRITES,
        uploadDataDuringCreation: true,
        retryDelays: [],
        storeFingerprintForResuming: false,
        onSuccess: ({ lastResponse }) => {
          const outcome = lastResponse.getHeader('Upload-Outcome');
          if (outcome === 'stored') resolve();
          else reject(new Error(`tus upload of ${path.basename(file)}: ${outcome} ${lastResponse.getHeader('Upload-Refusal') ?? ''}`));
        },
        onError: reject,
      });
      upload.start();
    });
  return async (serverUrl, files) => {
    let next = 0;
    let bytes = 0;
    await Promise.all(
      Array.from({ length: TUS_FILES_IN_FLIGHT }, async () => {
        while (next < files.length) {
          const file = files[next++]!;
          await sendOne(serverUrl, file);
          bytes += statSync(file).size;
        }
      }),
    );
    return bytes;
  };
}

/**
 * tus-js-client's Node reader of a file on disk, each chunk read at once as the multipart sender
 * reads its files (its own reader streams 64 kB at a time): the two ways are compared on the
 * server's work, not on how the bench's own client reads the disk.
 */
function fileOnDisk(file: string): NonNullable<UploadOptions['fileReader']> {
  return {
    async openFile() {
      const fd = openSync(file, 'r');
      const size = fstatSync(fd).size;
      return {
        size,
        async slice(start: number, end: number) {
          const last = Math.min(end, size);
          const bytes = Buffer.allocUnsafe(last - start);
          for (let read = 0; read < bytes.length;) {
            const got = readSync(fd, bytes, read, bytes.length - read, start + read);
            if (got === 0) throw new Error(`${file} ended early`);
            read += got;
          }
          // tus-js-client sends a body's `size` as its Content-Length.
          return { value: Object.assign(bytes, { size: bytes.length }), done: last >= size };
        },
        close: () => closeSync(fd),
      };
    },
  };
}

/**
 * Sends a run while sampling the server's resident memory and CPU time. The disk's write-back of
 * earlier runs is finished first (`sync`): otherwise a run pays for the one before it, and the
 * way that runs second in a round looks slower than it is.
 */
export async function timedUpload<Batch>(server: Server, batches: Batch[], send: Sender<Batch>): Promise<UploadRun> {
  execFileSync('sync');
  const baseline = rssOf(server.pid);
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid))), 20);
  let bytes = 0;
  const cpuBefore = cpuSecondsOf(server.pid);
  const started = process.hrtime.bigint();
  try {
    bytes = await send(server.url, batches);
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSecondsPerGB = (cpuSecondsOf(server.pid) - cpuBefore) / (bytes / GB);
  return { bytes, seconds, mbps: bytes / MB / seconds, cpuSecondsPerGB, peakRssGrowthMB: (peak - baseline) / MB };
}

/**
 * A multipart body of the files, one part each, with its exact Content-Length. Each file is read
 * whole (the largest is UPLOAD_MAX_FILE_BYTES): the sender is the load, not what is measured.
 * Streaming each file (open, reads, close, each a round trip to libuv's threads on a machine the
 * servers share) held 100 KB files to under 20 MB/s, whichever server received them; read at
 * once, the same servers took them 2-4 times as fast.
 */
async function postMultipart(baseUrl: string, files: string[], ingest: Ingest): Promise<{ status: number; body: string }> {
  const boundary = `----bench${randomUUID()}`;
  const head = (file: string) => Buffer.from(`--${boundary}\r\n${ingest.partHeaders(file)}\r\n`);
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = files.reduce((sum, file) => sum + head(file).length + statSync(file).size + 2, 0) + tail.length;
  async function* body() {
    for (const file of files) {
      yield head(file);
      yield readFileSync(file);
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  const req = request(`${baseUrl}${ingest.path}`, {
    ...(ingest.freshConnection && { agent: false }),
    method: 'POST',
    headers: { ...ingest.headers, 'content-type': `${ingest.multipartType}; boundary=${boundary}`, 'content-length': length },
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

export async function signIn(url: string, patient = PATIENT): Promise<Session> {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const anonymousCookie = cookiesSetBy(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const login = await fetch(`${url}/api/auth/portal/login`, {
    method: 'POST',
    headers: { cookie: anonymousCookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' },
    body: JSON.stringify({
      login: patient.email,
      password: createHash('sha256').update(patient.password).digest('hex'),
      portalTerms: true,
      policyTerms: true,
    }),
  });
  if (!login.ok) throw new Error(`bench login failed: ${login.status}`);
  const { csrfToken: token } = (await login.json()) as { csrfToken: string };
  return { cookie: cookiesSetBy(login), token };
}

/** This file again, as a server process; once listening it prints its port on stdout, and the app its API key after it. */
export async function startServer(
  mode: '--serve-app' | '--serve-plain',
  dataDir: string,
  children: ChildProcess[],
  databaseUrl?: string,
): Promise<Server> {
  // Node itself with tsx's loader, not `npx tsx`: a wrapper would not pass SIGTERM on.
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, mode, dataDir, ...(databaseUrl ? [databaseUrl] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const [port, key] = line.toString().trim().split(' ');
  if (!Number(port)) throw new Error(`${mode} did not start: ${line.toString()}`);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, key };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/**
 * The real app on an in-memory PGlite (or in a schema of its own on `databaseUrl`) with one patient, and another person whose screening has
 * the folder's accession number with an API key that may store images into it; storing under `dataDir`.
 */
async function serveApp(dataDir: string, databaseUrl?: string): Promise<void> {
  const { startEmbeddedDatabase } = await import('../db/embedded');
  const { createApp } = await import('../server/app');
  const { loadConfig } = await import('../server/config');
  const { createDb, migrate } = await import('../server/db');
  const { createLogger } = await import('../server/lib/logger');
  const { createApiKeyService } = await import('../server/provider/keys/api-key-service');
  const { insertAccount, insertPerson, insertScreening } = await import('../tests/support/seed-minimal');
  const config = loadConfig({
    NODE_ENV: 'test',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123',
    ACCESS_CODE_SECRET: 'bench-access-code-secret-0123456789abcdef',
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'false',
    DATA_DIR: dataDir,
  });
  const embedded = databaseUrl ? undefined : await startEmbeddedDatabase();
  const schema = databaseUrl ? `bench_upload_${process.pid}` : undefined;
  const db = createDb({ url: embedded?.url ?? databaseUrl!, poolMax: embedded?.poolMax, schema });
  await migrate(db, schema);
  const personId = await insertPerson(db, { firstName: 'Bench', lastName: 'Upload', birthAt: '1970-01-01' });
  await insertAccount(db, personId, PATIENT);
  // The resumable upload's patients: the same folder goes to each once.
  const resumablePatients = [RESUMABLE_PATIENT];
  for (let round = 0; round < COMPARISON_ROUNDS; round++)
    resumablePatients.push(
      comparisonPatient(round, 'multipart'),
      comparisonPatient(round, 'resumable'),
      comparisonPatient(round, 'against-plain'),
    );
  for (const [index, patient] of resumablePatients.entries()) {
    const id = await insertPerson(db, { firstName: 'Bench', lastName: `Resumable${index}`, birthAt: '1972-01-01' });
    await insertAccount(db, id, patient);
  }
  // Instances are unique per patient by SOP instance UID: STOW-RS stores the same folder into another person.
  const stowPersonId = await insertPerson(db, { firstName: 'Bench', lastName: 'Stow', birthAt: STOW_SCREENING_GUEST.birthAt });
  const screeningId = await insertScreening(db, config, stowPersonId, {
    accessCode: STOW_SCREENING_GUEST.accessCode,
    examinedAt: '2026-10-06T09:00:00Z',
  });
  await db('screenings').where({ id: screeningId }).update({ accession_number: ACCESSION_NUMBER });
  const { key } = await createApiKeyService({ db, clock: Date.now, config }).create({
    name: 'bench STOW-RS',
    scopes: ['images:write'],
    createdBy: 'bench',
  });
  const app = createApp({ config, db, logger: createLogger(config) });
  const server = app.listen(0, '127.0.0.1', () => console.log(`${(server.address() as AddressInfo).port} ${key}`));
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    void app
      .close()
      .then(() => schema && db.raw('DROP SCHEMA ?? CASCADE', [schema]))
      .then(() => db.destroy())
      .then(() => embedded?.stop())
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

const [mode, dataDir, databaseUrl] = process.argv.slice(2);
if (mode === '--serve-app' && dataDir) await serveApp(dataDir, databaseUrl);
else if (mode === '--serve-plain' && dataDir) servePlain(dataDir);
