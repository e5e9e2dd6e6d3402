import type { Config } from '../config';
import { LocalDiskStorage } from './local-disk';
import { S3Storage, type S3Options } from './s3';
import type { FileStorage } from './file-storage';

export { assertStorageKey, type FileStorage } from './file-storage';

export type StorageConfig = Pick<
  Config,
  | 'dataDir'
  | 'STORAGE_DRIVER'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

export function createStorage(
  config: StorageConfig,
  tuning: Pick<S3Options, 'multipartThreshold' | 'partSize'> = {},
): FileStorage {
  if (config.STORAGE_DRIVER === 's3') {
    return new S3Storage({
      ...tuning,
      bucket: config.S3_BUCKET!,
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID ?? process.env.AWS_ACCESS_KEY_ID ?? '',
      secretAccessKey: config.S3_SECRET_ACCESS_KEY ?? process.env.AWS_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  // Rooted at DATA_DIR itself: files stored before this interface keep their paths.
  return new LocalDiskStorage(config.dataDir);
}

const storages = new WeakMap<object, FileStorage>();

/** The app's storage, one per configuration (every module that keeps files asks for it here). */
export function fileStorage(config: StorageConfig): FileStorage {
  let storage = storages.get(config);
  if (!storage) storages.set(config, (storage = createStorage(config)));
  return storage;
}
