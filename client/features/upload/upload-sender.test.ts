import type { UploadOutcome } from '@common/types/upload';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR } from '../../lib/api';
import type { SelectedFile } from './selection';
import { RETRY_DELAYS_MS, sendInBatches, type SendBatch } from './upload-sender';

const file = (path: string, size = 100): SelectedFile => ({ id: path, path, size, lastModified: 0, file: new File([], path) });
const batches = [[file('a'), file('b')], [file('c')], [file('d', 300)]];
const ok = (stored: number, extra: Partial<UploadOutcome> = {}): UploadOutcome => ({ stored, duplicates: 0, refused: [], ...extra });
const noWait = vi.fn(async () => {});

describe('sendInBatches', () => {
  it('adds up what the server did with every batch and reports progress in bytes', async () => {
    const send = vi
      .fn<SendBatch>()
      .mockResolvedValueOnce(ok(1, { refused: [{ name: 'b', reason: 'dicomdir' }] }))
      .mockResolvedValueOnce(ok(0, { duplicates: 1 }))
      .mockResolvedValueOnce(ok(1));
    const progress: string[] = [];
    const report = await sendInBatches(batches, { send, wait: noWait, onProgress: (done, total) => progress.push(`${done}/${total}`) });
    expect(report).toEqual({ stored: 2, duplicates: 1, refused: [{ name: 'b', reason: 'dicomdir' }], failed: [] });
    expect(progress).toEqual(['0/600', '200/600', '300/600', '600/600']);
  });

  it('moves the progress with the bytes of each request, and not back when a batch is sent again', async () => {
    let attempt = 0;
    const send = vi.fn<SendBatch>(async (files, { onSent }) => {
      if (files[0]!.path === 'a' && attempt++ === 0) {
        onSent(0.5);
        throw new ApiError({ status: 0, code: NETWORK_ERROR });
      }
      onSent(0.25);
      onSent(0.75);
      onSent(1);
      return ok(files.length);
    });
    const progress: number[] = [];
    await sendInBatches(batches, { send, wait: noWait, onProgress: (done) => progress.push(done) });
    // Batch a+b (200 bytes): half sent, lost, then sent again from zero; c (100); d (300).
    expect(progress).toEqual([0, 100, 150, 200, 200, 225, 275, 300, 300, 375, 525, 600, 600]);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
  });

  it('retries a batch lost on the way or failed on the server, waiting longer each time', async () => {
    const wait = vi.fn(async () => {});
    const send = vi
      .fn<SendBatch>()
      .mockRejectedValueOnce(new ApiError({ status: 0, code: NETWORK_ERROR }))
      .mockRejectedValueOnce(new ApiError({ status: 503, code: 'INTERNAL' }))
      .mockResolvedValue(ok(1));
    const report = await sendInBatches([batches[0]!], { send, wait, onProgress: () => {} });
    expect(report.stored).toBe(1);
    expect(send).toHaveBeenCalledTimes(3);
    expect(wait.mock.calls).toEqual([[RETRY_DELAYS_MS[0]], [RETRY_DELAYS_MS[1]]]);
  });

  it('reports a batch that keeps failing after its retries and goes on with the next', async () => {
    const send = vi.fn<SendBatch>(async (files) => {
      if (files[0]!.path === 'a') throw new ApiError({ status: 500, code: 'INTERNAL' });
      return ok(files.length);
    });
    const report = await sendInBatches(batches, { send, wait: noWait, onProgress: () => {} });
    expect(send).toHaveBeenCalledTimes(1 + RETRY_DELAYS_MS.length + 2);
    expect(report).toMatchObject({ stored: 2, failed: [{ files: 2, code: 'INTERNAL' }] });
  });

  it('does not repeat a refused request, and stops at a full quota since later batches would fail too', async () => {
    const send = vi
      .fn<SendBatch>()
      .mockRejectedValueOnce(new ApiError({ status: 413, code: 'UPLOAD_TOO_MANY_FILES' }))
      .mockRejectedValueOnce(new ApiError({ status: 413, code: 'UPLOAD_QUOTA_EXCEEDED' }));
    const report = await sendInBatches(batches, { send, wait: noWait, onProgress: () => {} });
    expect(send).toHaveBeenCalledTimes(2);
    expect(report.failed).toEqual([
      { files: 2, code: 'UPLOAD_TOO_MANY_FILES' },
      { files: 1, code: 'UPLOAD_QUOTA_EXCEEDED' },
      { files: 1, code: 'UPLOAD_QUOTA_EXCEEDED' },
    ]);
  });

  it('gives up at once when the page is left', async () => {
    const controller = new AbortController();
    const send = vi.fn<SendBatch>(async () => {
      controller.abort();
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(sendInBatches(batches, { send, wait: noWait, onProgress: () => {}, signal: controller.signal })).rejects.toThrow(
      'aborted',
    );
    expect(send).toHaveBeenCalledTimes(1);
  });
});
