// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadedStudiesResponse, UploadLimits } from '@common/types/upload';
import { resetCsrfToken } from '../../lib/api';
import { fakeApi, renderAt, startEnglish } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import UploadPage from './UploadPage';

// The marker scan runs on the page (marker-scanner.ts) as in the browser; only tus-js-client is replaced.
type TusOptions = {
  endpoint: string;
  metadata: Record<string, string>;
  uploadDataDuringCreation: boolean;
  chunkSize: number;
  onBeforeRequest: (request: { setHeader: (name: string, value: string) => void }) => Promise<void>;
  onProgress: (sent: number, total: number) => void;
  onSuccess: (payload: { lastResponse: { getHeader: (name: string) => string | undefined } }) => void;
  onError: (error: Error) => void;
};

/**
 * tus-js-client as the page sees it. `answer` says what the server does with each file, by path:
 * its outcome headers, or an error answer (status and code).
 */
const tus = vi.hoisted(() => {
  type Answer = { outcome: string; refusal?: string } | { status: number; code: string } | 'hold';
  const state = {
    uploads: [] as Array<{ path: string; options: unknown; headers: Record<string, string>; aborted: boolean | 'terminated' }>,
    answer: (_path: string): Answer | Promise<Answer> => ({ outcome: 'stored' }),
  };
  return state;
});

vi.mock('tus-js-client', () => {
  class Upload {
    url: string | null = null;
    private record: (typeof tus.uploads)[number];
    constructor(
      private file: File,
      private options: TusOptions,
    ) {
      this.record = { path: options.metadata.name!, options, headers: {}, aborted: false };
      tus.uploads.push(this.record);
    }
    async findPreviousUploads() {
      return [];
    }
    resumeFromPreviousUpload() {}
    start() {
      void (async () => {
        await this.options.onBeforeRequest({ setHeader: (name, value) => (this.record.headers[name] = value) });
        const answer = await tus.answer(this.record.path);
        if (answer === 'hold') return;
        if ('status' in answer) {
          this.options.onError(
            Object.assign(new Error('tus: unexpected response'), {
              originalRequest: { getMethod: () => 'POST', getURL: () => this.options.endpoint },
              originalResponse: {
                getStatus: () => answer.status,
                getBody: () => JSON.stringify({ code: answer.code }),
                getHeader: () => undefined,
              },
            }),
          );
          return;
        }
        this.url = `${this.options.endpoint}/${tus.uploads.length}`;
        this.options.onProgress(this.file.size, this.file.size);
        this.options.onSuccess({
          lastResponse: { getHeader: (name) => ({ 'Upload-Outcome': answer.outcome, 'Upload-Refusal': answer.refusal })[name] },
        });
      })();
    }
    async abort(terminate?: boolean) {
      this.record.aborted = terminate ? 'terminated' : true;
    }
    static async terminate() {}
  }
  return { Upload };
});

beforeAll(startEnglish);
beforeEach(() => {
  resetCsrfToken();
  notifications.items = [];
  tus.uploads.length = 0;
  tus.answer = () => ({ outcome: 'stored' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LIMITS: UploadLimits = {
  maxFileBytes: 100_000,
  maxFilesPerRequest: 2,
  maxRequestBytes: 1_000_000,
  quotaBytes: 1e9,
  usedBytes: 0,
  reservedBytes: 0,
  reservedUntil: null,
};
const STUDY = {
  studyInstanceUid: '1.2.3',
  studyDate: '2024-03-05',
  modalities: ['MG'],
  instances: 3,
  sizeBytes: 2_400_000,
  lastUploadedAt: '2026-11-20T10:00:00Z',
};

/** The marker without a header: the page cannot read its UID and sends it for the server to judge. */
function dicom(name: string, size = 400): File {
  const bytes = new Uint8Array(size);
  bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
  return new File([bytes], name);
}

/** happy-dom's import.meta.url is no file URL: the corpus is found from the repository root. */
const DICOM_CORPUS_DIR = join(process.cwd(), 'tests/fixtures/dicom');

function corpus(name: string, as = name): File {
  return new File([readFileSync(`${DICOM_CORPUS_DIR}/${name}`)], as);
}

function fileInputs(container: HTMLElement) {
  const inputs = [...container.querySelectorAll<HTMLInputElement>('input[type=file]')];
  return {
    files: inputs.find((input) => !input.hasAttribute('webkitdirectory'))!,
    folder: inputs.find((input) => input.hasAttribute('webkitdirectory'))!,
  };
}

function baseRoutes(known: string[] = []) {
  let studies: UploadedStudiesResponse = { studies: [] };
  const asked: string[][] = [];
  const requests = fakeApi({
    'GET /dicom/limits': () => ({ body: LIMITS }),
    'GET /dicom': () => ({ body: studies }),
    'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
    'POST /dicom/uploads/known': ({ body }) => {
      const uids = (body as { sopInstanceUids: string[] }).sopInstanceUids;
      asked.push(uids);
      studies = { studies: [STUDY] };
      return { body: { known: uids.filter((uid) => known.includes(uid)) } };
    },
  });
  return { requests, asked, storeStudy: () => (studies = { studies: [STUDY] }) };
}

describe('UploadPage', () => {
  it('starts sending on the pick, skips what need not go, and sums up what happened', async () => {
    const api = baseRoutes(['1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322']);
    tus.answer = (path) => {
      api.storeStudy();
      return path === 'broken.dcm' ? { outcome: 'refused', refusal: 'unreadable' } : { outcome: 'stored' };
    };
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderAt('/portal/upload-screenings', <UploadPage />);
    expect(await screen.findByText('You have not uploaded any studies yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();

    await user.upload(fileInputs(container).files, [
      dicom('a.dcm'),
      new File(['plain text'], 'notes.txt'),
      dicom('DICOMDIR'),
      corpus('CT_small.dcm'),
      corpus('MR_small.dcm'),
      corpus('MR_small.dcm', 'copy-of-MR.dcm'),
      dicom('broken.dcm'),
      dicom('huge.dcm', 200_000),
    ]);

    const report = await screen.findByRole('region', { name: 'Result of the upload' });
    await waitFor(() => expect(within(report).getByText('2 images stored')).toBeTruthy());
    expect(within(report).getByText('1 image is already in your account and was not sent again')).toBeTruthy();
    expect(within(report).getByText('1 file is a copy of another chosen file and was sent once')).toBeTruthy();
    expect(within(report).getByText(/^1 file is a DICOMDIR/)).toBeTruthy();
    expect(within(report).getByText('1 file is not a DICOM image and was skipped')).toBeTruthy();
    expect(within(report).getByText('1 file is larger than 100 kB and was skipped')).toBeTruthy();
    expect(within(report).getByText('1 file refused: the file is damaged or incomplete')).toBeTruthy();

    // Sent with tus, one upload per file, its first bytes in the creating request, with the CSRF token.
    expect(tus.uploads.map((upload) => upload.path).sort()).toEqual(['MR_small.dcm', 'a.dcm', 'broken.dcm']);
    for (const upload of tus.uploads) {
      expect(upload.headers['X-CSRF-Token']).toBe('t');
      expect(upload.options).toMatchObject({ uploadDataDuringCreation: true, endpoint: expect.stringMatching(/\/api\/dicom\/uploads$/) });
    }
    expect(api.asked.flat().sort()).toEqual([
      '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322',
      '1.3.6.1.4.1.5962.1.1.4.1.1.20040826185059.5457',
    ]);
    expect(screen.getByText('3 of 3 files done')).toBeTruthy();
    await waitFor(() => expect(notifications.items.map((item) => item.key)).toEqual(['upload.success']));
    // The studies are asked for again once the upload settled.
    await waitFor(() => expect(screen.getByText('MG')).toBeTruthy());

    const problems = within(report).getByRole('button', { name: 'Files not stored' });
    await user.click(problems);
    expect(within(report).getByText('broken.dcm: the file is damaged or incomplete')).toBeTruthy();
  });

  it('stops the remaining files after a quota refusal, says why, and tries the failed ones again', async () => {
    baseRoutes();
    // IM1 is refused once the first four files are on their way.
    tus.answer = async (path) => {
      if (path !== 'IM1') return 'hold';
      await vi.waitFor(() => expect(tus.uploads).toHaveLength(4));
      return { status: 413, code: 'UPLOAD_QUOTA_EXCEEDED' };
    };
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderAt('/portal/upload-screenings', <UploadPage />);
    await screen.findByRole('button', { name: 'Choose folder' });
    await user.upload(fileInputs(container).folder, [dicom('IM1'), dicom('IM2'), dicom('IM3'), dicom('IM4'), dicom('IM5'), dicom('IM6')]);

    const report = await screen.findByRole('region', { name: 'Result of the upload' });
    // IM1 was refused; IM2-IM4 were on their way (held here by the fake) and keep going; IM5 and IM6 are not sent.
    await waitFor(() =>
      expect(
        within(report).getByText('3 files could not be sent: There is not enough space left in your account for these images.'),
      ).toBeTruthy(),
    );
    expect(screen.getAllByText('There is not enough space left in your account for these images.').length).toBeGreaterThan(0);
    expect(tus.uploads.map((upload) => upload.path)).toEqual(['IM1', 'IM2', 'IM3', 'IM4']);

    // Cancelling deletes the unfinished ones on the server.
    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    await waitFor(() =>
      expect(tus.uploads.filter((upload) => upload.aborted === 'terminated').map((upload) => upload.path)).toEqual(['IM2', 'IM3', 'IM4']),
    );
    expect(await screen.findByText('Upload cancelled. The images stored before stay in your account.')).toBeTruthy();

    tus.answer = () => ({ outcome: 'stored' });
    await user.click(within(report).getByRole('button', { name: 'Try the failed ones again' }));
    await waitFor(() => expect(within(report).getByText('3 images stored')).toBeTruthy());
  });

  it('pauses and resumes the files on their way', async () => {
    baseRoutes();
    tus.answer = () => 'hold';
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderAt('/portal/upload-screenings', <UploadPage />);
    await screen.findByRole('button', { name: 'Choose files' });
    await user.upload(fileInputs(container).files, [dicom('one.dcm')]);
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    expect(tus.uploads[0]!.aborted).toBe(true);
    expect(screen.getByText(/^Paused\./)).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'one.dcm' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Resume' }));
    expect(screen.getByRole('button', { name: 'Pause' })).toBeTruthy();
  });

  it('says so when the upload settings cannot be loaded, and offers to try again', async () => {
    let fail = true;
    fakeApi({
      'GET /dicom/limits': () => (fail ? { status: 500, body: { code: 'INTERNAL' } } : { body: LIMITS }),
      'GET /dicom': () => ({ body: { studies: [] } }),
    });
    const user = userEvent.setup();
    renderAt('/portal/upload-screenings', <UploadPage />);
    expect(await screen.findByText('The upload settings could not be loaded.')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Choose folder' })).toBeTruthy();
  });

  it('counts what her unfinished uploads hold, and says until when', async () => {
    const reserved: UploadLimits = { ...LIMITS, usedBytes: 2_400_000, reservedBytes: 30_000_000, reservedUntil: '2026-11-30T09:15:00Z' };
    fakeApi({ 'GET /dicom/limits': () => ({ body: reserved }), 'GET /dicom': () => ({ body: { studies: [] } }) });
    renderAt('/portal/upload-screenings', <UploadPage />);
    const quota = await screen.findByText(/^Space used:/);
    expect(quota.textContent).toContain('Another 30 MB is held by uploads that did not finish.');
    expect(quota.textContent).toMatch(/freed by Nov 30, 2026, \d{1,2}:15/);
  });

  it('says nothing of unfinished uploads when she has none', async () => {
    fakeApi({ 'GET /dicom/limits': () => ({ body: LIMITS }), 'GET /dicom': () => ({ body: { studies: [] } }) });
    renderAt('/portal/upload-screenings', <UploadPage />);
    expect((await screen.findByText(/^Space used:/)).textContent).not.toContain('did not finish');
  });
});
