import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

const ORTHANC = '/usr/sbin/Orthanc';
const DICOMWEB_PLUGIN = '/usr/share/orthanc/plugins/libOrthancDicomWeb.so';

export type Orthanc = {
  url: string;
  /** The server process, for the bench to read its memory and CPU time. */
  pid: number;
  /** Orthanc's own REST API: JSON in and out. */
  rest(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  /** Stores a DICOM file in Orthanc; answers its Orthanc ids. */
  store(file: Uint8Array): Promise<{ ID: string; ParentStudy: string }>;
  stop(): Promise<void>;
};

/**
 * A real Orthanc (Debian's `orthanc` with its `orthanc-dicomweb` plugin) on free ports, storing
 * in a folder of its own, with the portal's provider DICOMweb API configured as its DICOMweb
 * server `portal` (the key goes in an Authorization header, as a PACS would send it).
 */
export async function startOrthanc(portal: { dicomwebUrl: string; apiKey: string }): Promise<Orthanc> {
  const directory = mkdtempSync(path.join(tmpdir(), 'orthanc-'));
  const httpPort = await freePort();
  const dicomPort = await freePort();
  const configFile = path.join(directory, 'orthanc.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      Name: 'PortalTestPACS',
      StorageDirectory: path.join(directory, 'storage'),
      IndexDirectory: path.join(directory, 'index'),
      HttpPort: httpPort,
      DicomPort: dicomPort,
      RemoteAccessAllowed: false,
      AuthenticationEnabled: false,
      Plugins: [DICOMWEB_PLUGIN],
      DicomWeb: {
        Enable: true,
        Root: '/dicom-web/',
        Servers: {
          portal: { Url: portal.dicomwebUrl, HttpHeaders: { Authorization: `Bearer ${portal.apiKey}` } },
        },
      },
    }),
  );
  const child: ChildProcess = spawn(ORTHANC, [configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${httpPort}`;

  const rest: Orthanc['rest'] = async (method, restPath, body) => {
    const response = await fetch(`${url}${restPath}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Orthanc answers some errors as plain text.
    }
    return { status: response.status, body: parsed };
  };

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Orthanc exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/system`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`Orthanc did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    pid: child.pid!,
    rest,
    async store(file) {
      const response = await fetch(`${url}/instances`, { method: 'POST', body: Buffer.from(file) });
      if (!response.ok) throw new Error(`Orthanc refused the file: ${response.status} ${await response.text()}`);
      return (await response.json()) as { ID: string; ParentStudy: string };
    },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
