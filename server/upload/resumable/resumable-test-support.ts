import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { inject } from 'vitest';
import { createApp } from '../../app';
import { createDb, schemaOf } from '../../db';
import { createLogger } from '../../lib/logger';
import { synthesizeImage } from '../../dicom/synthetic-mg';
import type { TestApp, TestClient, TestResponse } from '../../../tests/support/app';
import { cookieHeader } from '../upload-test-support';

export const UPLOADS = '/api/dicom/uploads';
export const TUS = { 'tus-resumable': '1.0.0' };
export const OCTETS = { 'content-type': 'application/offset+octet-stream' };

/** `Upload-Metadata` as tus clients send it: `key base64(value)` pairs. */
export function metadataHeader(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

type TusOptions = { headers?: Record<string, string>; withoutCsrf?: boolean; body?: Uint8Array };

/** One tus request as the browser sends it: the session cookie, the CSRF header (but on HEAD) and the tus version. */
export async function tusRequest(
  client: TestClient,
  baseUrl: string,
  method: string,
  path: string,
  options: TusOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...TUS, ...options.headers };
  if (client.cookies.size > 0) headers.cookie = cookieHeader(client);
  if (method !== 'HEAD' && client.csrfToken && !options.withoutCsrf) headers['x-csrf-token'] = client.csrfToken;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: options.body as BodyInit | undefined });
  const text = await response.text();
  const body = text && response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, body, text };
}

/** `POST /api/dicom/uploads`: a creation, with the first bytes (or all of them) when `body` is given. */
export function createUpload(
  client: TestClient,
  baseUrl: string,
  length: number,
  name: string,
  options: TusOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { 'upload-length': String(length), 'upload-metadata': metadataHeader({ name }) };
  if (options.body) Object.assign(headers, OCTETS);
  return tusRequest(client, baseUrl, 'POST', UPLOADS, { ...options, headers: { ...headers, ...options.headers } });
}

export function patchUpload(
  client: TestClient,
  baseUrl: string,
  location: string,
  offset: number,
  body: Uint8Array,
  options: TusOptions = {},
) {
  return tusRequest(client, baseUrl, 'PATCH', location, {
    ...options,
    body,
    headers: { ...OCTETS, 'upload-offset': String(offset), ...options.headers },
  });
}

/**
 * Sends the headers and `sent` bytes of a PATCH that promises `body.length`, waits until the
 * server has `arrived()` (some of them are on disk), then destroys the socket: a connection that
 * drops mid-file. Resolves once the socket is gone.
 */
export async function abortedPatch(
  client: TestClient,
  baseUrl: string,
  location: string,
  offset: number,
  body: Uint8Array,
  sent: number,
  arrived: () => boolean,
) {
  const request = http.request(`${baseUrl}${location}`, {
    method: 'PATCH',
    headers: {
      ...TUS,
      ...OCTETS,
      'upload-offset': String(offset),
      'content-length': String(body.length),
      cookie: cookieHeader(client),
      'x-csrf-token': client.csrfToken ?? '',
    },
  });
  request.on('error', () => undefined);
  await new Promise<void>((resolve) => request.write(body.subarray(0, sent), () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!arrived() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const closed = new Promise((resolve) => request.once('close', resolve));
  request.destroy();
  await closed;
}

/** A mammogram of about `megabytes` MB (16-bit pixels), a valid DICOM file with its own SOP instance. */
export function syntheticMammogram(name: string, megabytes: number): { bytes: Buffer; sopInstanceUid: string; studyInstanceUid: string } {
  const side = Math.round(Math.sqrt((megabytes * 1024 * 1024) / 2));
  const image = synthesizeImage(
    {
      patient: { firstName: 'Anna', lastName: 'Testowa', birthAt: '1970-05-06', patientId: 'resumable-tests' },
      examinedAt: new Date('2025-02-03T10:00:00Z'),
      accessionNumber: 'RES-1',
    },
    { laterality: 'L', position: 'MLO' },
    1,
    { rows: side, columns: side, bitsStored: 16, photometric: 'MONOCHROME2' },
    name,
  );
  return { bytes: Buffer.from(image.bytes), sopInstanceUid: image.sopInstanceUid, studyInstanceUid: image.studyInstanceUid };
}

/**
 * A second portal process in miniature: another app on the same database schema and DATA_DIR,
 * listening on its own port (on PostgreSQL with its own connection pool; the embedded PGlite
 * serves one connection, which both share as two processes would share the server).
 */
export async function startSecondInstance(app: TestApp): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const ownPool = inject('databaseKind') === 'pglite' ? undefined : createDb({ url: inject('databaseUrl'), schema: schemaOf(app.db) });
  const db = ownPool ?? app.db;
  const logger = createLogger(app.config, { write: () => undefined });
  const second = createApp({ config: app.config, db, logger, clock: app.clock.now, clientDir: '/nonexistent/dist/client' });
  const server = second.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await second.close();
      await ownPool?.destroy();
    },
  };
}
