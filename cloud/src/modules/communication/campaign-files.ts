import { randomBytes } from 'node:crypto';
import type { CampaignUpload } from '../../../../shared/contracts/api/communication';
import { CAMPAIGN_FILE_MAX_BYTES } from '../../../../shared/contracts/api/communication';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { FileStorage } from '../../storage/index';
import { asCampaign, findCampaign, type Campaign, type StoredAttachment } from './campaigns.service';

/** What the bytes are, by their signature (the data URL's declared type must agree). */
export function sniffCampaignFile(bytes: Buffer): string | null {
  const hex = bytes.subarray(0, 12).toString('hex');
  if (hex.startsWith('89504e470d0a1a0a')) return 'image/png';
  if (hex.startsWith('ffd8ff')) return 'image/jpeg';
  if (hex.startsWith('474946383761') || hex.startsWith('474946383961')) return 'image/gif';
  if (hex.startsWith('52494646') && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  return null;
}

const refused = (message: string) =>
  new AppError('campaign.fileRefused', { message, fields: { dataUrl: [message] } });

/**
 * `POST campaign/upload`: the draft's image or PDF into the file storage
 * (`campaign-files/<studio>/<campaign>/<random>`), replacing the one it had (that file is removed
 * once the new one is recorded). Only a draft or scheduled campaign takes a file.
 */
export async function uploadCampaignFile(
  db: Db,
  storage: FileStorage,
  studioId: string,
  upload: CampaignUpload,
  now: Date,
): Promise<{ campaign: Campaign; replaced: string | null }> {
  const campaign = await findCampaign(db, studioId, upload.campaign, true);
  if (campaign.status !== 0 && campaign.status !== 3)
    throw new AppError('campaign.wrongStatus', {
      message: 'only a draft or scheduled campaign takes a file',
    });
  const [, declared, data] = /^data:([^;]+);base64,(.*)$/.exec(upload.dataUrl) ?? [];
  const bytes = Buffer.from(data ?? '', 'base64');
  if (bytes.length === 0) throw refused('the file is empty');
  if (bytes.length > CAMPAIGN_FILE_MAX_BYTES) throw refused('the file is too large (at most 700 KB)');
  const type = sniffCampaignFile(bytes);
  if (!type || type !== declared) throw refused('send a PNG, JPEG, GIF or WebP image or a PDF');
  const key = `campaign-files/${studioId}/${campaign.id}/${randomBytes(9).toString('base64url')}`;
  await storage.put(key, bytes, type);
  const attachment: StoredAttachment = { key, name: upload.name, type, size: bytes.length };
  const [row] = await db('campaigns')
    .where({ id: campaign.id })
    .update({ attachment: JSON.stringify(attachment), updatedAt: now })
    .returning('*');
  return { campaign: asCampaign(row!), replaced: campaign.attachment?.key ?? null };
}

/** The file a campaign's mails link to (any campaign not removed as a draft: sent ones keep it). */
export async function openCampaignFile(
  db: Db,
  storage: FileStorage,
  campaignId: string,
): Promise<{ attachment: StoredAttachment; bytes: Buffer }> {
  if (!/^[0-9a-f-]{36}$/i.test(campaignId)) throw AppError.notFound('file');
  const row = await db('campaigns').where({ id: campaignId }).first();
  const attachment = row ? asCampaign(row).attachment : null;
  if (!attachment) throw AppError.notFound('file');
  const bytes = await storage.read(attachment.key).catch(() => null);
  if (!bytes) throw AppError.notFound('file');
  return { attachment, bytes };
}
