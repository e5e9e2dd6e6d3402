import { v7 as uuidv7 } from 'uuid';
import type {
  BundleRequestInput,
  BundleRequestState,
  BundleRequestView,
} from '../../../../shared/contracts/api/studio-records';
import { AppError } from '../../../../shared/errors';
import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import { enqueue } from '../../jobs/queue';
import type { MailMessage } from '../../mail/mailer';
import type { Studio } from '../identity/index';

/**
 * A studio asks the platform for the premium mobile apps bundle (spec §7 POST bundle/request; the
 * bundle is an add-on of §1's subscription). The request is recorded (one open per studio), its
 * state shown to the studio's managers, and the platform's operator mailed through the job pipeline
 * (`PLATFORM_OPERATOR_EMAIL`, else MAIL_FROM's address). Selling the add-on is the subscription's.
 */

type Row = {
  id: string;
  status: string;
  contactName: string;
  contactEmail: string;
  contactPhone: string | null;
  message: string | null;
  createdAt: Date | string;
  withdrawnAt: Date | string | null;
  requestedBy: string | null;
  firstName: string | null;
  lastName: string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

const present = (r: Row): BundleRequestView => ({
  id: r.id,
  status: r.status === 'withdrawn' ? 'withdrawn' : 'requested',
  contactName: r.contactName,
  contactEmail: r.contactEmail,
  contactPhone: r.contactPhone,
  message: r.message,
  requestedBy:
    r.requestedBy && r.firstName !== null
      ? { id: r.requestedBy, firstName: r.firstName, lastName: r.lastName ?? '' }
      : null,
  createdAt: iso(r.createdAt),
  withdrawnAt: r.withdrawnAt ? iso(r.withdrawnAt) : null,
});

const requests = (db: Db, studioId: string) =>
  db('bundle_requests as b')
    .leftJoin('users as u', 'u.id', 'b.requested_by')
    .where('b.studio_id', studioId)
    .select(
      'b.id',
      'b.status',
      'b.contact_name as contactName',
      'b.contact_email as contactEmail',
      'b.contact_phone as contactPhone',
      'b.message',
      'b.created_at as createdAt',
      'b.withdrawn_at as withdrawnAt',
      'b.requested_by as requestedBy',
      'u.first_name as firstName',
      'u.last_name as lastName',
    );

/** The studio's latest request, open or withdrawn. */
export async function bundleRequestState(db: Db, studioId: string): Promise<BundleRequestState> {
  const row = (await requests(db, studioId)
    .orderBy([
      { column: 'b.created_at', order: 'desc' },
      { column: 'b.id', order: 'desc' },
    ])
    .first()) as Row | undefined;
  return { request: row ? present(row) : null };
}

/** The operator's mailbox: PLATFORM_OPERATOR_EMAIL, else the address inside MAIL_FROM. */
export function operatorAddress(config: Pick<Config, 'PLATFORM_OPERATOR_EMAIL' | 'MAIL_FROM'>): string {
  if (config.PLATFORM_OPERATOR_EMAIL) return config.PLATFORM_OPERATOR_EMAIL;
  const inBrackets = /<([^>]+)>/.exec(config.MAIL_FROM);
  return (inBrackets?.[1] ?? config.MAIL_FROM).trim();
}

function operatorMail(
  to: string,
  studio: Studio,
  request: BundleRequestView,
  publicUrl: string,
  kind: 'requested' | 'withdrawn',
): MailMessage {
  const lines =
    kind === 'requested'
      ? [
          `${studio.name} asks for the premium mobile apps bundle.`,
          '',
          `Studio: ${studio.name} (${studio.id})`,
          `Back office: ${publicUrl}/${studio.id}/backoffice`,
          `Contact: ${request.contactName}, ${request.contactEmail}${request.contactPhone ? `, ${request.contactPhone}` : ''}`,
          `Sent by: ${request.requestedBy ? `${request.requestedBy.firstName} ${request.requestedBy.lastName}` : '—'}`,
          `Request: ${request.id}, ${request.createdAt}`,
          ...(request.message ? ['', 'Message:', request.message] : []),
        ]
      : [
          `${studio.name} withdrew its request for the premium mobile apps bundle.`,
          '',
          `Studio: ${studio.name} (${studio.id})`,
          `Request: ${request.id} of ${request.createdAt}, withdrawn ${request.withdrawnAt}`,
        ];
  return {
    to,
    subject:
      kind === 'requested'
        ? `Premium apps bundle requested: ${studio.name}`
        : `Premium apps bundle request withdrawn: ${studio.name}`,
    text: lines.join('\n'),
    replyTo: request.contactEmail,
    language: 'en',
  };
}

export async function requestBundle(
  trx: Db,
  studio: Studio,
  userId: string,
  input: BundleRequestInput,
  config: Pick<Config, 'PLATFORM_OPERATOR_EMAIL' | 'MAIL_FROM' | 'publicUrl'>,
  now: Date,
): Promise<BundleRequestView> {
  const id = uuidv7();
  const inserted = await trx('bundle_requests')
    .insert({
      id,
      studioId: studio.id,
      requestedBy: userId,
      contactName: input.contactName,
      contactEmail: input.contactEmail,
      contactPhone: input.contactPhone ?? null,
      message: input.message ?? null,
      createdAt: now,
    })
    .onConflict(trx.raw(`(studio_id) where status = 'requested'`))
    .ignore()
    .returning('id');
  if (!inserted[0]) {
    throw new AppError('studio.bundleRequested', {
      message: 'the studio has already asked for the premium apps bundle: the platform will answer it',
    });
  }
  const view = present((await requests(trx, studio.id).where('b.id', id).first()) as Row);
  await enqueue(
    trx,
    'mail.send',
    operatorMail(operatorAddress(config), studio, view, config.publicUrl, 'requested'),
    { key: `bundle.request:${id}` },
  );
  return view;
}

export async function withdrawBundleRequest(
  trx: Db,
  studio: Studio,
  config: Pick<Config, 'PLATFORM_OPERATOR_EMAIL' | 'MAIL_FROM' | 'publicUrl'>,
  now: Date,
): Promise<BundleRequestState> {
  const updated = await trx('bundle_requests')
    .where({ studioId: studio.id, status: 'requested' })
    .update({ status: 'withdrawn', withdrawnAt: now })
    .returning('id');
  if (!updated[0]) throw AppError.notFound('bundle request');
  const view = present((await requests(trx, studio.id).where('b.id', updated[0].id).first()) as Row);
  await enqueue(
    trx,
    'mail.send',
    operatorMail(operatorAddress(config), studio, view, config.publicUrl, 'withdrawn'),
    { key: `bundle.withdrawn:${view.id}` },
  );
  return { request: view };
}
