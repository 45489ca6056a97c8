import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMinimal, startTestApp, type MinimalSeed, type TestApp, type TestClient } from '../../tests/support/app';
import { addressSource, auditEntries } from '../../tests/support/ownership';
import { cookieHeader, corpusFile, filesUnder, postDicoms, type UploadPart } from './upload-test-support';

/** Small limits, so the corpus files (2-40 KB) break each of them. */
const LIMITS = { maxFileBytes: 20_000, maxFilesPerRequest: 5, maxRequestBytes: 60_000, quotaBytes: 25_000, resumableExpiryHours: 24 };
const CT5N = ['2062', '2392', '2693', '3023', '3353'].map((name) => `dicomdirtests/98892001/CT5N/${name}`);

let app: TestApp;
let seed: MinimalSeed;
let patient: TestClient;
const nextAddress = addressSource('10.56.0');

const storedFiles = () => filesUnder(path.join(app.config.dataDir, 'storage', 'dicom'));
const incomingFiles = () => filesUnder(path.join(app.config.dataDir, 'storage', 'incoming'));
const rowCount = async () => Number((await app.db('dicom_instances').count({ n: '*' }))[0]!.n);

/** A refused request keeps nothing: no row, no stored file, nothing waiting in the incoming area. */
async function expectNothingKept(rowsBefore: number, filesBefore: string[]): Promise<void> {
  expect(await rowCount()).toBe(rowsBefore);
  expect(storedFiles()).toEqual(filesBefore);
  await waitFor(() => incomingFiles().length === 0, 'the incoming area to be emptied');
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  app = await startTestApp({ config: { upload: LIMITS } });
  seed = await seedMinimal(app.db, app.config);
  patient = app.client();
  expect((await patient.loginPortal(seed.patient.login, seed.patient.password)).status).toBe(200);
});

afterAll(() => app?.close());

describe('limits of one request', () => {
  it('refuses the whole request with UPLOAD_FILE_TOO_LARGE when one file is over the limit', async () => {
    const [rows, files] = [await rowCount(), storedFiles()];
    // CT_small.dcm is 39,206 bytes; the valid image sent before it must not be kept either.
    const response = await postDicoms(patient, app.baseUrl, [corpusFile(CT5N[0]!), corpusFile('CT_small.dcm')]);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'UPLOAD_FILE_TOO_LARGE', maxFileBytes: LIMITS.maxFileBytes });
    await expectNothingKept(rows, files);
  });

  it('refuses more files than one request may carry with UPLOAD_TOO_MANY_FILES', async () => {
    const [rows, files] = [await rowCount(), storedFiles()];
    const parts = [...CT5N, 'dicomdirtests/77654033/CR1/6154'].map((name) => corpusFile(name));
    const response = await postDicoms(patient, app.baseUrl, parts);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'UPLOAD_TOO_MANY_FILES', maxFilesPerRequest: LIMITS.maxFilesPerRequest });
    await expectNothingKept(rows, files);
  });

  it('refuses a body over the request limit with PAYLOAD_TOO_LARGE before reading it', async () => {
    const [rows, files] = [await rowCount(), storedFiles()];
    // Four files each under the file limit, 76 KB together.
    const parts = [1, 2, 3, 4].map((index) => ({ name: `part-${index}.dcm`, bytes: Buffer.alloc(19_000) }));
    const response = await postDicoms(patient, app.baseUrl, parts);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', maxRequestBytes: LIMITS.maxRequestBytes });
    await expectNothingKept(rows, files);
  });
});

describe('the per-patient quota', () => {
  it('stores within the quota, then refuses a request that would pass it, keeping nothing of it', async () => {
    const fill = await postDicoms(
      patient,
      app.baseUrl,
      CT5N.map((name) => corpusFile(name)),
    );
    expect(fill.body).toEqual({ stored: 5, duplicates: 0, refused: [] });
    const usedBytes = (await patient.get('/api/dicom/limits')).body.usedBytes;
    expect(usedBytes).toBe(CT5N.reduce((sum, name) => sum + corpusFile(name).bytes.length, 0));

    const [rows, files] = [await rowCount(), storedFiles()];
    const response = await postDicoms(patient, app.baseUrl, [corpusFile('MR_small.dcm')]);
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: 'UPLOAD_QUOTA_EXCEEDED', quotaBytes: LIMITS.quotaBytes, usedBytes });
    await expectNothingKept(rows, files);
  });

  it('does not count duplicates against the quota', async () => {
    const response = await postDicoms(patient, app.baseUrl, [corpusFile(CT5N[0]!), corpusFile('dicomdirtests/77654033/CR1/6154')]);
    expect(response.body).toEqual({ stored: 1, duplicates: 1, refused: [] });
  });

  it('lets only one of two concurrent requests take the last room under the quota', async () => {
    const left = LIMITS.quotaBytes - (await patient.get('/api/dicom/limits')).body.usedBytes;
    const [a, b] = [corpusFile('dicomdirtests/77654033/CR2/6247'), corpusFile('dicomdirtests/77654033/CR3/6278')];
    expect(a.bytes.length).toBeLessThanOrEqual(left);
    expect(a.bytes.length + b.bytes.length).toBeGreaterThan(left);

    const answers = await Promise.all([postDicoms(patient, app.baseUrl, [a]), postDicoms(patient, app.baseUrl, [b])]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 413]);
    expect(answers.map((answer) => answer.body.code ?? answer.body.stored).sort()).toEqual([1, 'UPLOAD_QUOTA_EXCEEDED']);
    expect((await patient.get('/api/dicom/limits')).body.usedBytes).toBeLessThanOrEqual(LIMITS.quotaBytes);
    expect(incomingFiles()).toEqual([]);
  });
});

describe('an upload the client abandons', () => {
  it('leaves no row, no stored file and nothing in the incoming area when the connection drops mid-body', async () => {
    const [rows, files] = [await rowCount(), storedFiles()];
    const { ip } = nextAddress();
    const boundary = '----portal-test-boundary';
    const partHeader = (part: UploadPart) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="dicoms"; filename="${part.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const complete = corpusFile('dicomdirtests/98892003/MR1/4919');
    const cut = corpusFile('dicomdirtests/98892003/MR1/5641');
    const sent = Buffer.concat([
      Buffer.from(partHeader(complete)),
      complete.bytes,
      Buffer.from('\r\n'),
      Buffer.from(partHeader(cut)),
      cut.bytes.subarray(0, 1000),
    ]);
    const declaredLength = sent.length + cut.bytes.length - 1000 + `\r\n--${boundary}--\r\n`.length;
    const head = [
      'POST /api/dicom HTTP/1.1',
      `Host: ${new URL(app.baseUrl).host}`,
      `Cookie: ${cookieHeader(patient)}`,
      `X-CSRF-Token: ${patient.csrfToken}`,
      `X-Forwarded-For: ${ip}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${declaredLength}`,
      '',
      '',
    ].join('\r\n');

    const socket = connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(head);
    socket.write(sent);
    // Both files are being written to disk when the client goes away.
    await waitFor(() => incomingFiles().length === 2, 'both files to reach the incoming area');
    socket.destroy();

    await expectNothingKept(rows, files);
    expect(await auditEntries(app.db, 'DICOM_UPLOAD', ip)).toEqual([]);
    expect(app.logs.join('\n')).not.toContain('unhandled error');
  });
});
