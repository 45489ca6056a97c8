import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { UploadLimits } from '../../common/types/upload';
import { resultPortalSession } from '../cookies';
import { median } from '../median';
import {
  batchesOf,
  multipartSender,
  signIn,
  startServer,
  stopServer,
  STOW_SCREENING_GUEST,
  stowRs,
  writeFolder,
} from '../upload-throughput';

const GB = 1024 ** 3;
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS ?? 3);
const STUDY_BYTES = Number(process.env.BENCH_PEER_DISC_MB ?? 1024) * 1024 ** 2;
/** Issue 16: from the request to a downloadable image, at least 1.5 times as fast as the DCMTK toolchain. */
export const DISC_PEER_TARGET = 1.5;
/** The two studies of the issue: full-field mammograms of 10 MB, and more files of 5 MB. */
const STUDIES = [
  { label: '10 MB files', rows: 2560, columns: 2048 },
  { label: '5 MB files', rows: 2048, columns: 1280 },
] as const;

export type DiscPeerResult = {
  studies: { label: string; files: number; bytes: number; portal: number[]; dcmtk: number[]; downloadMBps: number }[];
};

/**
 * fetch, asked again once when the server closed the kept-alive connection just as it was reused
 * (undici's "other side closed" after a pause longer than the server's keep-alive timeout, such as
 * a DCMTK turn). Only for calls that may be repeated: status reads and the disc image request,
 * which answers the running build when asked twice.
 */
async function fetchAgain(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

/** Seconds from `POST /api/iso/generate` until `/api/iso/status` says `done` (polled every 20 ms). */
async function portalDiscSeconds(url: string, session: { cookie: string; token: string }): Promise<number> {
  execFileSync('sync');
  const started = process.hrtime.bigint();
  const asked = await fetchAgain(`${url}/api/iso/generate`, {
    method: 'POST',
    headers: { cookie: session.cookie, 'x-csrf-token': session.token, 'content-type': 'application/json' },
    body: '{}',
  });
  if (asked.status !== 202) throw new Error(`generate answered ${asked.status}`);
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const answer = await fetchAgain(`${url}/api/iso/status`, { headers: { cookie: session.cookie } });
    const { status } = (await answer.json()) as { status: string };
    if (status === 'done') return Number(process.hrtime.bigint() - started) / 1e9;
    if (!['new', 'in_progress'].includes(status) || Date.now() > deadline) throw new Error(`disc image status ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * MB/s of one whole download of the built image (streamed from the stored files on each download,
 * where xorriso's image is a file of its own): for information, checked against its announced size.
 */
async function portalDownloadMBps(url: string, session: { cookie: string }): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetchAgain(`${url}/api/iso`, { headers: { cookie: session.cookie } });
  const reader = response.body!.getReader();
  let bytes = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
  if (response.status !== 200 || bytes !== Number(response.headers.get('content-length'))) throw new Error('disc image download cut short');
  return bytes / 1024 ** 2 / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** Seconds for `dcmmkdir` (the DICOMDIR, inventing what the profile lacks) and `xorriso -as mkisofs` (the image) of the same folder. */
function dcmtkDiscSeconds(discRoot: string, isoPath: string): number {
  rmSync(path.join(discRoot, 'DICOMDIR'), { force: true });
  rmSync(isoPath, { force: true });
  execFileSync('sync');
  const started = process.hrtime.bigint();
  execFileSync('dcmmkdir', ['+r', '+I', '+D', 'DICOMDIR', 'DICOM'], { cwd: discRoot, stdio: 'ignore' });
  execFileSync('xorriso', ['-as', 'mkisofs', '-quiet', '-o', isoPath, '-V', 'BENCH', '-r', discRoot], { stdio: 'ignore' });
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * The disc image side by side (issue 16): a study of about 1 GB stored in the portal by STOW-RS,
 * then, in alternating turns, the portal's disc image from the patient's request until it can be
 * downloaded, and Debian's DCMTK toolchain on the same files (dcmmkdir for the DICOMDIR, xorriso
 * for the ISO 9660 image), on the same disk. Before each portal round one more small image is
 * stored, which drops the built image (as any upload does), so every round builds anew.
 */
export async function measureDiscPeers(databaseUrl?: string): Promise<DiscPeerResult> {
  const workDir = mkdtempSync(path.join(tmpdir(), 'disc-peers-'));
  const children: ChildProcess[] = [];
  try {
    const result: DiscPeerResult = { studies: [] };
    let nextUid = 1;
    for (const study of STUDIES) {
      // A portal of its own per study: the disc holds every image of the screening.
      const portal = await startServer('--serve-app', path.join(workDir, `portal-data-${study.rows}`), children, databaseUrl);
      const patient = await signIn(portal.url);
      const limits = (await (
        await fetch(`${portal.url}/api/dicom/limits`, { headers: { cookie: patient.cookie } })
      ).json()) as UploadLimits;
      // The DCMTK turns pause the portal's connections past its keep-alive timeout.
      const stow = multipartSender({ ...stowRs(portal.key!), freshConnection: true });
      // The screening the folder's accession number names: the disc image is hers to ask for.
      const guest = await resultPortalSession(portal.url, STOW_SCREENING_GUEST);
      const discRoot = path.join(workDir, `disc-${study.rows}`);
      const folder = writeFolder(path.join(discRoot, 'DICOM'), STUDY_BYTES, {
        rows: study.rows,
        columns: study.columns,
        firstUid: nextUid,
      });
      nextUid += folder.files.length;
      await stow(portal.url, batchesOf(folder.files, folder.fileBytes, limits));
      const entry = {
        label: study.label,
        files: folder.files.length,
        bytes: folder.files.length * folder.fileBytes,
        portal: [] as number[],
        dcmtk: [] as number[],
        downloadMBps: 0,
      };
      for (let round = 0; round < ROUNDS; round++) {
        const extra = writeFolder(path.join(workDir, 'extra'), 1, { rows: 64, columns: 64, firstUid: nextUid++ });
        await stow(portal.url, batchesOf(extra.files, extra.fileBytes, limits));
        rmSync(path.join(workDir, 'extra'), { recursive: true, force: true });
        const measurePortal = async () => void entry.portal.push(await portalDiscSeconds(portal.url, guest));
        const measureDcmtk = async () => void entry.dcmtk.push(dcmtkDiscSeconds(discRoot, path.join(workDir, 'dcmtk.iso')));
        // Alternate which goes first, so neither always meets a disk still writing back the other's image.
        for (const measure of round % 2 === 0 ? [measurePortal, measureDcmtk] : [measureDcmtk, measurePortal]) await measure();
      }
      entry.downloadMBps = await portalDownloadMBps(portal.url, guest);
      result.studies.push(entry);
      rmSync(discRoot, { recursive: true, force: true });
      await stopServer(children.pop()!);
      rmSync(path.join(workDir, `portal-data-${study.rows}`), { recursive: true, force: true });
    }
    return result;
  } finally {
    for (const child of children) await stopServer(child);
    rmSync(workDir, { recursive: true, force: true });
  }
}

export function printDiscPeers({ studies }: DiscPeerResult): boolean {
  let ok = true;
  const spread = (values: number[]) => `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
  console.log(
    `\n## Disc image against dcmmkdir + xorriso -as mkisofs (${ROUNDS} rounds; seconds from the request to a downloadable image)`,
  );
  for (const { label, files, bytes, portal, dcmtk, downloadMBps } of studies) {
    const speedup = median(dcmtk) / median(portal);
    const met = speedup >= DISC_PEER_TARGET;
    ok &&= met;
    console.log(`  ${label}, ${files} files (${(bytes / GB).toFixed(2)} GB):`);
    console.log(`    portal          ${median(portal).toFixed(2)} s (${spread(portal)})`);
    console.log(`    DCMTK + xorriso ${median(dcmtk).toFixed(2)} s (${spread(dcmtk)})`);
    console.log(`    portal speed / DCMTK's: ${speedup.toFixed(2)}x; target >= ${DISC_PEER_TARGET}x: ${met ? 'met' : 'NOT MET'}`);
    console.log(`    then one whole download of the portal's image: ${downloadMBps.toFixed(0)} MB/s (for information)`);
  }
  return ok;
}
