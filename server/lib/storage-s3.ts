import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  assertIncoming,
  incomingDirOf,
  KEY_PATTERN,
  missingFile,
  newStorageKey,
  SWEEP_BATCH,
  UNNAMED_AFTER_MS,
  type ByteRange,
  type FileStorage,
  type StoredObject,
} from './storage';

export type S3StorageOptions = {
  bucket: string;
  region: string;
  /** For S3-compatible servers (MinIO, Ceph, s3rver); AWS itself needs none. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** The incoming area stays on local disk: `<dataDir>/storage/incoming`. */
  dataDir: string;
};

/**
 * Multipart part size of streamed writes. Memory held per write is about PART_SIZE x
 * PARTS_IN_FLIGHT (20 MB), whatever the file's size; S3 allows 10,000 parts, so one file may
 * reach 50 GB, far above a disc image.
 */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

/**
 * The S3 backend (issue 16): one object per key in one bucket; credentials from the SDK's default
 * chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 *
 * Writes of unknown length (disc images) go through lib-storage's Upload, a multipart upload of
 * PART_SIZE parts: the object appears only when the upload completes, so no reader sees half a
 * file, and a failed one is aborted. A process killed mid-upload leaves invisible parts, not an
 * object: the bucket's lifecycle rule AbortIncompleteMultipartUpload removes them (README).
 */
export function createS3Storage(options: S3StorageOptions): FileStorage {
  const { bucket } = options;
  const incomingDir = incomingDirOf(options.dataDir);
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    // S3-compatible servers vary in their support of the SDK's newer default checksums (aws-chunked
    // bodies with trailing CRC32); send and check them only where the operation requires them.
    ...(options.endpoint && { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' }),
  });

  const checked = (key: string): string => {
    if (!KEY_PATTERN.test(key)) throw new Error(`Not a storage key: ${key}`);
    return key;
  };

  async function upload(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: checked(key), Body: body },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    // A source that fails part-way must fail the upload (and so abort it), not end it short.
    const failed = new Promise<never>((_resolve, reject) => body.once('error', reject));
    failed.catch(() => undefined);
    try {
      await Promise.race([upload.done(), failed]);
    } catch (error) {
      await upload.abort().catch(() => undefined);
      throw error;
    }
  }

  async function get(key: string, range?: ByteRange) {
    try {
      return await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: checked(key), Range: range && `bytes=${range.start}-${range.end}` }),
      );
    } catch (error) {
      if (isS3Error(error, 'NoSuchKey', 404)) throw missingFile(key);
      throw error;
    }
  }

  return {
    backend: 's3',
    incomingDir,
    newKey: newStorageKey,
    writeFile: async (key, content) => {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: checked(key), Body: content }));
    },
    writeStream: (key, source) => upload(key, source instanceof Readable ? source : Readable.from(source)),
    adopt: async (incomingPath, key) => {
      assertIncoming(incomingDir, incomingPath);
      await upload(key, createReadStream(incomingPath));
      await rm(incomingPath, { force: true });
    },
    openRead: async (key, range) => {
      const { Body } = await get(key, range);
      return Body as Readable;
    },
    readBytes: async (key, start, length) => {
      if (length === 0) return Buffer.alloc(0);
      try {
        const { Body } = await get(key, { start, end: start + length - 1 });
        return Buffer.from(await Body!.transformToByteArray());
      } catch (error) {
        // A start at or beyond the end: no bytes, as a file read there answers.
        if (isS3Error(error, 'InvalidRange', 416)) return Buffer.alloc(0);
        throw error;
      }
    },
    sizeOf: async (key) => {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: checked(key) }));
        return head.ContentLength;
      } catch (error) {
        if (isS3Error(error, 'NotFound', 404)) return undefined;
        throw error;
      }
    },
    remove: async (key) => {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: checked(key) }));
    },
    // Unfinished writes are multipart uploads, never objects: lib-storage aborts a failed one and the
    // bucket's lifecycle rule those of a dead process (see above). There is nothing to delete here.
    removeParts: async () => undefined,
    removeUnnamed: async (area, named, now) => {
      const settledBefore = now - UNNAMED_AFTER_MS;
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: `${area}/`, ContinuationToken: token, MaxKeys: SWEEP_BATCH }),
        );
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
        // LastModified, where the local backend takes ctime. It is safe because objects are written
        // once under fresh keys, never overwritten, copied or renamed: it dates the one write of
        // that key (its start, for a multipart upload), never older bytes. An object adopted a
        // moment ago, its row's commit maybe still running, is at most its upload's duration old
        // (seconds to minutes), far inside UNNAMED_AFTER_MS, however old the file's bytes are.
        const settled = (page.Contents ?? [])
          .filter((object) => object.Key && KEY_PATTERN.test(object.Key) && object.Key.startsWith(`${area}/`))
          .filter((object) => object.LastModified && object.LastModified.getTime() < settledBefore)
          .map((object) => object.Key!);
        const kept = await named(settled);
        for (const key of settled) {
          if (kept.has(key)) continue;
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
          removed++;
        }
      } while (token);
      return removed;
    },
    list: async (area, prefix) => {
      const listed: StoredObject[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${area}/${prefix}`, ContinuationToken: token }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
        for (const object of page.Contents ?? []) {
          if (object.Key && KEY_PATTERN.test(object.Key)) listed.push({ key: object.Key, size: object.Size ?? 0 });
        }
      } while (token);
      // S3 answers in the keys' byte order; not every S3-compatible server does.
      return listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    probe: async () => {
      const key = `readyz/${randomUUID()}`;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'ok' }));
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}

function isS3Error(error: unknown, name: string, status: number): boolean {
  return error instanceof S3ServiceException && (error.name === name || error.$metadata.httpStatusCode === status);
}
