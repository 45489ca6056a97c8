import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UploadLimits } from '../../common/types/upload';
import { startOrthanc } from '../../tests/support/orthanc';
import { median } from '../median';
import {
  batchesOf,
  multipartSender,
  patientUpload,
  signIn,
  startServer,
  stopServer,
  stowRs,
  timedUpload,
  writeFolder,
  type Sender,
  type Server,
  type UploadRun,
} from '../upload-throughput';

const MB = 1024 ** 2;
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
/** Issue 16: the portal ingests at least 1.5 times as fast as Orthanc, each way against its counterpart. */
export const INGEST_PEER_TARGET = 1.5;
/** The two kinds of folder of the issue: mammogram-sized files, and small ones where per-file costs show. */
const FOLDERS = [
  { label: '5 MB files', rows: 2048, columns: 1280, totalBytes: Number(process.env.BENCH_PEER_INGEST_MB ?? 250) * MB },
  { label: '100 KB files', rows: 226, columns: 226, totalBytes: Number(process.env.BENCH_PEER_SMALL_MB ?? 25) * MB },
] as const;

type Way = 'portal upload' | 'Orthanc REST' | 'portal STOW-RS' | 'Orthanc STOW-RS';
const WAYS: Way[] = ['portal upload', 'Orthanc REST', 'portal STOW-RS', 'Orthanc STOW-RS'];
export type IngestPeerResult = { folders: { label: string; files: number; runs: Record<Way, UploadRun[]> }[] };

/** Orthanc's own REST API: one `POST /instances` per file, one after another, as its tools send them; each file read at once, as the multipart senders do. */
function orthancRest(): Sender<string[]> {
  return async (serverUrl, batches) => {
    let sent = 0;
    for (const file of batches.flat()) {
      const bytes = readFileSync(file);
      const req = request(`${serverUrl}/instances`, {
        method: 'POST',
        headers: { 'content-type': 'application/dicom', 'content-length': bytes.length },
      });
      const answered = new Promise<number>((resolve, reject) => {
        req.once('response', (response) => {
          response.resume();
          response.once('end', () => resolve(response.statusCode ?? 0));
        });
        req.once('error', reject);
      });
      req.end(bytes);
      const status = await answered;
      if (status !== 200) throw new Error(`Orthanc refused ${file}: ${status}`);
      sent += bytes.length;
    }
    return sent;
  };
}

/**
 * DICOM ingest side by side (issue 16): the same folders, with fresh SOP instance UIDs each time
 * (a second copy would be a duplicate either side stores once), sent to the portal as a patient's
 * upload and as a PACS's STOW-RS, and to Orthanc (Debian's, with its DICOMweb plugin) through its
 * REST API and its STOW-RS. Each process's own CPU time and memory are read like the upload
 * bench's. The ways take turns in every round, each round starting with another way.
 */
export async function measureIngestPeers(databaseUrl?: string): Promise<IngestPeerResult> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'ingest-peers-'));
  const children: ChildProcess[] = [];
  const orthanc = await startOrthanc({ dicomwebUrl: 'http://127.0.0.1:9/unused', apiKey: 'unused' });
  try {
    const portal = await startServer('--serve-app', path.join(workDir, 'portal-data'), children, databaseUrl);
    const session = await signIn(portal.url);
    const limits = (await (await fetch(`${portal.url}/api/dicom/limits`, { headers: { cookie: session.cookie } })).json()) as UploadLimits;
    const orthancServer: Server = { url: orthanc.url, pid: orthanc.pid };
    const senders: Record<Way, { server: Server; send: Sender<string[]> }> = {
      'portal upload': { server: portal, send: multipartSender(patientUpload(session)) },
      'Orthanc REST': { server: orthancServer, send: orthancRest() },
      'portal STOW-RS': { server: portal, send: multipartSender(stowRs(portal.key!)) },
      'Orthanc STOW-RS': { server: orthancServer, send: multipartSender(stowRs('unused', '/dicom-web/studies')) },
    };
    const result: IngestPeerResult = { folders: [] };
    let nextUid = 1;
    for (const folder of FOLDERS) {
      const runs = Object.fromEntries(WAYS.map((way) => [way, [] as UploadRun[]])) as Record<Way, UploadRun[]>;
      let files = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (let turn = 0; turn < WAYS.length; turn++) {
          const way = WAYS[(round + turn) % WAYS.length]!;
          const directory = path.join(workDir, 'folder');
          const written = writeFolder(directory, folder.totalBytes, { rows: folder.rows, columns: folder.columns, firstUid: nextUid });
          nextUid += written.files.length;
          files = written.files.length;
          const { server, send } = senders[way];
          runs[way].push(await timedUpload(server, batchesOf(written.files, written.fileBytes, limits), send));
          rmSync(directory, { recursive: true, force: true });
        }
      }
      result.folders.push({ label: folder.label, files, runs });
    }
    return result;
  } finally {
    for (const child of children) await stopServer(child);
    await orthanc.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}

export function printIngestPeers({ folders }: IngestPeerResult): boolean {
  let ok = true;
  const rate = (runs: UploadRun[]) => median(runs.map((run) => run.mbps));
  const spread = (runs: UploadRun[]) =>
    `${Math.min(...runs.map((r) => r.mbps)).toFixed(0)}-${Math.max(...runs.map((r) => r.mbps)).toFixed(0)}`;
  console.log(`\n## DICOM ingest against Orthanc (${ROUNDS} interleaved rounds; MB/s median (spread), server CPU s/GB)`);
  for (const { label, files, runs } of folders) {
    console.log(`  ${label}, ${files} per run:`);
    for (const way of WAYS) {
      const cpu = median(runs[way].map((run) => run.cpuSecondsPerGB)).toFixed(1);
      console.log(`    ${way.padEnd(16)} ${rate(runs[way]).toFixed(0).padStart(5)} MB/s (${spread(runs[way])})  CPU ${cpu} s/GB`);
    }
    for (const [portal, peer] of [
      ['portal upload', 'Orthanc REST'],
      ['portal STOW-RS', 'Orthanc STOW-RS'],
    ] as const) {
      const ratio = rate(runs[portal]) / rate(runs[peer]);
      const met = ratio >= INGEST_PEER_TARGET;
      ok &&= met;
      console.log(`    ${portal} / ${peer}: ${ratio.toFixed(2)}x; target >= ${INGEST_PEER_TARGET}x: ${met ? 'met' : 'NOT MET'}`);
    }
  }
  return ok;
}
