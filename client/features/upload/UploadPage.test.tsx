// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadedStudiesResponse, UploadLimits } from '@common/types/upload';
import { resetCsrfToken } from '../../lib/api';
import { FakeXhrBase } from '../../testing/xhr';
import { scanFiles } from '../../workers/dicom-marker';
import { pathOrder } from '../../workers/path-order';
import { fakeApi, renderAt, startEnglish } from '../../testing/session';
import { notifications } from '../../stores/notification-store';
import UploadPage from './UploadPage';

// happy-dom has no workers: the scan runs in the test's thread, batching and all.
vi.mock('./marker-scanner', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./marker-scanner')>();
  return {
    ...actual,
    createMarkerScanner: () => ({
      scan: (items: { file: File }[], onProgress: (done: number, total: number) => void) =>
        actual.scanInBatches(items, scanFiles, onProgress),
      order: async (paths: string[]) => pathOrder(paths),
      dispose: () => {},
    }),
  };
});

/** Uploads go by XMLHttpRequest (for their progress): this one carries them over fakeApi's fetch. */
class XhrOverFetch extends FakeXhrBase {
  send(body: FormData) {
    const { url, ...init } = this.request;
    fetch(url, { ...init, body }).then(
      async (response) => {
        this.reportSent(1, 1);
        const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\r\n');
        this.answer(response.status, await response.text(), headers);
      },
      () => this.onerror?.(),
    );
  }
}

beforeAll(startEnglish);
beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', XhrOverFetch);
  resetCsrfToken();
  notifications.items = [];
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LIMITS: UploadLimits = { maxFileBytes: 10_000, maxFilesPerRequest: 2, maxRequestBytes: 1_000_000, quotaBytes: 1e9, usedBytes: 0 };
const STUDY = {
  studyInstanceUid: '1.2.3',
  studyDate: '2024-03-05',
  modalities: ['MG'],
  instances: 3,
  sizeBytes: 2_400_000,
  lastUploadedAt: '2026-11-20T10:00:00Z',
};

function dicom(name: string, size = 400): File {
  const bytes = new Uint8Array(size);
  bytes.set([0x44, 0x49, 0x43, 0x4d], 128);
  return new File([bytes], name);
}

function fileInputs(container: HTMLElement) {
  const inputs = [...container.querySelectorAll<HTMLInputElement>('input[type=file]')];
  return {
    files: inputs.find((input) => !input.hasAttribute('webkitdirectory'))!,
    folder: inputs.find((input) => input.hasAttribute('webkitdirectory'))!,
  };
}

describe('UploadPage', () => {
  it('keeps only DICOM files, sends them in batches, empties the list and shows the outcome and the new study', async () => {
    let studies: UploadedStudiesResponse = { studies: [] };
    let posts = 0;
    const requests = fakeApi({
      'GET /dicom/limits': () => ({ body: LIMITS }),
      'GET /dicom': () => ({ body: studies }),
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /dicom': () => {
        posts++;
        studies = { studies: [STUDY] };
        return {
          body:
            posts === 1
              ? { stored: 1, duplicates: 1, refused: [] }
              : { stored: 0, duplicates: 0, refused: [{ name: 'disc/DICOMDIR', reason: 'dicomdir' }] },
        };
      },
    });
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderAt('/portal/upload-screenings', <UploadPage />);
    expect(await screen.findByText('You have not uploaded any studies yet.')).toBeTruthy();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send.hasAttribute('disabled')).toBe(true);

    await user.upload(fileInputs(container).files, [
      dicom('a.dcm'),
      new File(['plain text'], 'notes.txt'),
      dicom('DICOMDIR'),
      dicom('b.dcm'),
      dicom('huge.dcm', 20_000),
    ]);

    expect(await screen.findByText('1 file is not a DICOM image and was skipped')).toBeTruthy();
    expect(screen.getByText(/1 file is larger than 10 kB and was skipped/)).toBeTruthy();
    expect(screen.getByText('3 files, 1.2 kB in total')).toBeTruthy();
    expect(
      within(screen.getByRole('grid', { name: 'Files to send' }))
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['a.dcm', 'b.dcm', 'DICOMDIR']);

    await user.click(screen.getByRole('button', { name: 'Remove b.dcm' }));
    expect(screen.getByText('2 files, 800 bytes in total')).toBeTruthy();
    await user.upload(fileInputs(container).files, [dicom('b.dcm')]);
    await screen.findByText('3 files, 1.2 kB in total');

    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('heading', { name: 'Result of the upload' })).toBeTruthy();
    expect(posts).toBe(2); // three files, two per request
    expect(requests.filter((request) => request.method === 'POST').every((request) => request.headers['X-CSRF-Token'] === 't')).toBe(true);
    expect(screen.getByText('1 image stored')).toBeTruthy();
    expect(screen.getByText('1 image was already in your account and was kept once')).toBeTruthy();
    expect(screen.getByText('1 file refused: a DICOMDIR (the table of contents of a disc), not an image')).toBeTruthy();
    expect(screen.getByText('No files chosen yet.')).toBeTruthy();
    expect(screen.queryByText(/not a DICOM image/)).toBeNull();
    expect(notifications.items.map((item) => item.key)).toEqual(['upload.success']);
    await waitFor(() => expect(screen.getByText('MG')).toBeTruthy());
    expect(screen.getByRole('row', { name: /Mar 5, 2024/ })).toBeTruthy();
  });

  it('reports a batch the server keeps refusing, and still empties the list', async () => {
    fakeApi({
      'GET /dicom/limits': () => ({ body: LIMITS }),
      'GET /dicom': () => ({ body: { studies: [] } }),
      'GET /auth/csrf': () => ({ body: { csrfToken: 't' } }),
      'POST /dicom': () => ({ status: 413, body: { code: 'UPLOAD_QUOTA_EXCEEDED' } }),
    });
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderAt('/portal/upload-screenings', <UploadPage />);
    await screen.findByText('No files chosen yet.');
    await user.upload(fileInputs(container).folder, [dicom('1'), dicom('2'), dicom('3')]);
    await screen.findByText('3 files, 1.2 kB in total');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText('3 files could not be sent: There is not enough space left in your account for these images.'),
    ).toBeTruthy();
    expect(notifications.items.map((item) => item.key)).toEqual(['upload.failure']);
    expect(screen.getByText('No files chosen yet.')).toBeTruthy();
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
});
