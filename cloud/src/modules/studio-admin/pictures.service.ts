import { v7 as uuidv7 } from 'uuid';
import type { PictureView } from '../../../../shared/contracts/api/studio-admin';
import { AppError } from '../../../../shared/errors';
import type { FileStorage } from '../../storage/index';
import { resizeImage } from './studio-settings.service';

/**
 * Pictures staff upload for the studio's content (spec §7 POST picture/upload, DELETE
 * picture/{picture}; a location's picture): checked by their bytes, resized to fit 1600 × 1600 and
 * stored as WebP under `pictures/<studio>/<id>.webp`. The key holds the studio, so another studio's
 * id is simply not found. Served publicly (a class page shows them signed out) by their id.
 */
export const pictureKey = (studioId: string, id: string) => `pictures/${studioId}/${id}.webp`;
export const picturePath = (studioId: string, id: string) => `/api/v4/${studioId}/picture/${id}`;

/** The id of one of this studio's stored pictures behind a URL (`picturePath`), else null. */
export function pictureIdOf(studioId: string, url: string | null | undefined): string | null {
  const prefix = `/api/v4/${studioId}/picture/`;
  if (!url?.startsWith(prefix)) return null;
  const id = url.slice(prefix.length);
  return /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}

export async function storePicture(
  storage: FileStorage,
  studioId: string,
  dataUrl: string,
): Promise<PictureView> {
  const { bytes, width, height } = await resizeImage(dataUrl, { width: 1600, height: 1600, fit: 'inside' });
  const id = uuidv7();
  await storage.put(pictureKey(studioId, id), bytes, 'image/webp');
  return { id, url: picturePath(studioId, id), width, height };
}

export async function deletePicture(storage: FileStorage, studioId: string, id: string): Promise<void> {
  const exists = await storage.read(pictureKey(studioId, id)).catch(() => null);
  if (!exists) throw AppError.notFound('picture');
  await storage.delete(pictureKey(studioId, id));
}

export async function readPicture(
  storage: FileStorage,
  studioId: string,
  id: string,
): Promise<Buffer | null> {
  return storage.read(pictureKey(studioId, id)).catch(() => null);
}
