import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { storageFromConfig } from './storage-from-config';

const ENV = { SESSION_SECRET: 's'.repeat(32), ACCESS_CODE_SECRET: 'a'.repeat(32), DATA_DIR: '/tmp/unused-data-dir' };

describe('STORAGE and the S3_* settings', () => {
  it('keep files in the local folder by default', () => {
    const config = loadConfig(ENV);
    expect(config.storage).toEqual({ backend: 'local' });
    expect(storageFromConfig(config)).toHaveProperty('root', '/tmp/unused-data-dir/storage');
  });

  it('read the bucket, endpoint, region and path style of S3', () => {
    const config = loadConfig({
      ...ENV,
      STORAGE: 's3',
      S3_BUCKET: 'portal',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.storage).toEqual({
      backend: 's3',
      bucket: 'portal',
      region: 'us-east-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(storageFromConfig(config)).not.toHaveProperty('root');
    expect(loadConfig({ ...ENV, STORAGE: 's3', S3_BUCKET: 'portal', S3_REGION: 'eu-central-1' }).storage).toEqual({
      backend: 's3',
      bucket: 'portal',
      region: 'eu-central-1',
      endpoint: undefined,
      forcePathStyle: false,
    });
  });

  it('refuse S3 without a bucket, and a wrong value, with a clear message', () => {
    expect(() => loadConfig({ ...ENV, STORAGE: 's3' })).toThrow(/STORAGE=s3 needs S3_BUCKET/);
    expect(() => loadConfig({ ...ENV, STORAGE: 'ftp' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...ENV, STORAGE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...ENV, STORAGE: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'yes' })).toThrow(ConfigError);
  });
});
