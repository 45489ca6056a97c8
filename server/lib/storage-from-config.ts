import type { Config } from '../config';
import { createFileStorage, type FileStorage } from './storage';
import { createS3Storage } from './storage-s3';

/** The backend the settings choose (STORAGE=local|s3, README "Settings"). */
export function storageFromConfig(config: Pick<Config, 'dataDir' | 'storage'>): FileStorage {
  const settings = config.storage;
  return settings.backend === 's3' ? createS3Storage({ ...settings, dataDir: config.dataDir }) : createFileStorage(config.dataDir);
}
