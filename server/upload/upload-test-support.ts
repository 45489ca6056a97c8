import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { TestClient, TestResponse } from '../../tests/support/app';
import { DICOM_CORPUS_DIR } from '../../tests/support/dicom-corpus';

export type UploadPart = { name: string; bytes: Buffer };

/** Every file of the corpus, named by its path relative to the corpus as a folder upload sends it. */
export function corpusFiles(directory = DICOM_CORPUS_DIR): UploadPart[] {
  const entries = readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return entries
    .map((entry) => {
      const full = path.join(entry.parentPath, entry.name);
      return { name: path.relative(DICOM_CORPUS_DIR, full), bytes: readFileSync(full) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function corpusFile(name: string): UploadPart {
  return { name, bytes: readFileSync(path.join(DICOM_CORPUS_DIR, name)) };
}

/**
 * `POST /api/dicom` as the browser sends it: multipart FormData with the repeated field `dicoms`,
 * the session cookie and the CSRF header of `client`.
 */
export async function postDicoms(
  client: TestClient,
  baseUrl: string,
  parts: UploadPart[],
  options: { field?: string; withoutCsrf?: boolean; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const form = new FormData();
  for (const part of parts) form.append(options.field ?? 'dicoms', new Blob([new Uint8Array(part.bytes)]), part.name);
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (client.cookies.size > 0) headers.cookie = cookieHeader(client);
  if (client.csrfToken && !options.withoutCsrf) headers['x-csrf-token'] = client.csrfToken;
  const response = await fetch(`${baseUrl}/api/dicom`, { method: 'POST', headers, body: form });
  const text = await response.text();
  const body = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, body, text };
}

export function cookieHeader(client: TestClient): string {
  return [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Every file below `directory`, relative to it; [] when it does not exist. */
export function filesUnder(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}
