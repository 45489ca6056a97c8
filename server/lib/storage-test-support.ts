import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { Config } from '../config';

export type TestS3 = { settings: Extract<Config['storage'], { backend: 's3' }>; close(): Promise<void> };

/**
 * An S3 server for tests: s3rver, an independent implementation of the S3 protocol, in this
 * process on a free port, keeping its objects in a folder of its own; one bucket created through
 * the SDK. Its fixed credentials are what the SDK's default chain then finds in the environment.
 */
export async function startTestS3(bucket = 'portal-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  const settings = { backend: 's3', bucket, region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true } as const;
  const client = new S3Client({ region: settings.region, endpoint: settings.endpoint, forcePathStyle: true });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  client.destroy();
  return {
    settings,
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
