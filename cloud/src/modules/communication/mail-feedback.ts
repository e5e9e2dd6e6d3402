import type { MailFeedback, MailFeedbackResult } from '../../../../shared/contracts/api/communication';
import type { Db } from '../../db/knex';
import { recordEmailBounce } from '../client-records/index';

/**
 * Bounces and complaints that arrive after the SMTP server accepted a message (issue 23): a
 * delivery status notification (RFC 3464 `multipart/report; report-type=delivery-status`), a
 * feedback-loop complaint (ARF, RFC 5965 `report-type=feedback-report`), or a provider's webhook
 * in our plain shape. Each names an address and, when the original message's headers came back,
 * the campaign (`X-Campaign-Id`) or the job (`Message-ID` `<campaign:<id>:<user>@…>`): that
 * studio's suppression list takes the address; without either, every studio that sent a campaign
 * to the address does (the mailbox is gone for all of them).
 */
export interface FeedbackEvent {
  type: 'bounce' | 'complaint';
  email: string;
  campaignId: string | null;
  detail: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

function campaignOf(headers: string): string | null {
  const direct = /^X-Campaign-Id:\s*([0-9a-f-]{36})/im.exec(headers)?.[1];
  if (direct) return direct;
  const id = /^Message-ID:\s*<campaign:([0-9a-f-]{36}):/im.exec(headers)?.[1];
  return id && UUID.test(id) ? id : null;
}

/**
 * The parts of a `multipart/report` (one level, as DSN and ARF send them): each part's type and
 * its text. mailparser folds `message/delivery-status` into the body text, so the report is split
 * here; its parts are 7-bit text by the RFCs (a quoted-printable one is decoded).
 */
function reportParts(raw: string): Array<{ type: string; text: string }> {
  const text = raw.replace(/\r\n/g, '\n');
  const headEnd = text.indexOf('\n\n');
  const head = (headEnd < 0 ? text : text.slice(0, headEnd)).replace(/\n[ \t]+/g, ' ');
  const boundary = /^Content-Type:\s*multipart\/report;.*?boundary="?([^";\s]+)"?/im.exec(head)?.[1];
  if (!boundary) return [];
  const body = text.slice(headEnd + 2);
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((p) => !p.startsWith('--'))
    .map((part) => {
      const p = part.replace(/^\n/, '');
      const end = p.indexOf('\n\n');
      const headers = (end < 0 ? p : p.slice(0, end)).replace(/\n[ \t]+/g, ' ');
      let content = end < 0 ? '' : p.slice(end + 2);
      if (/^Content-Transfer-Encoding:\s*quoted-printable/im.test(headers))
        content = content
          .replace(/=\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      const type = (/^Content-Type:\s*([^;\s]+)/im.exec(headers)?.[1] ?? 'text/plain').toLowerCase();
      return { type, text: content };
    });
}

/** The events of one DSN or ARF message (raw RFC 5322 text); nothing for anything else. */
export function parseFeedbackMail(raw: string): FeedbackEvent[] {
  const parts = reportParts(raw);
  const original = parts.find((p) => p.type === 'message/rfc822' || p.type === 'text/rfc822-headers');
  const campaignId = original ? campaignOf(original.text) : null;
  const status = parts.find((p) => p.type === 'message/delivery-status');
  if (status) {
    // Per-recipient blocks: a permanent failure (Action: failed, Status: 5.x.x) is a bounce.
    const events: FeedbackEvent[] = [];
    for (const block of status.text.split(/\r?\n\r?\n/)) {
      const rcpt = /^Final-Recipient:\s*rfc822;\s*<?([^\s>]+@[^\s>]+)>?/im.exec(block)?.[1];
      const action = /^Action:\s*(\w+)/im.exec(block)?.[1]?.toLowerCase();
      const code = /^Status:\s*(\d\.\d{1,3}\.\d{1,3})/im.exec(block)?.[1] ?? '';
      if (!rcpt || action !== 'failed' || !code.startsWith('5')) continue;
      const diagnostic = /^Diagnostic-Code:\s*(.+)$/im.exec(block)?.[1]?.trim() ?? `status ${code}`;
      events.push({ type: 'bounce', email: rcpt, campaignId, detail: diagnostic.slice(0, 200) });
    }
    return events;
  }
  const report = parts.find((p) => p.type === 'message/feedback-report');
  if (report) {
    const rcpt =
      /^Original-Rcpt-To:\s*<?([^\s>]+@[^\s>]+)>?/im.exec(report.text)?.[1] ??
      (original ? /^To:\s*(?:.*<)?([^\s<>]+@[^\s<>]+)>?/im.exec(original.text)?.[1] : undefined);
    const kind = /^Feedback-Type:\s*(\S+)/im.exec(report.text)?.[1] ?? 'abuse';
    return rcpt ? [{ type: 'complaint', email: rcpt, campaignId, detail: `feedback loop: ${kind}` }] : [];
  }
  return [];
}

/**
 * Suppresses each event's address (in the campaign's studio, else in every studio that mailed it a
 * campaign) and, for a bounce, records it on the client's profile as the SMTP refusal does.
 * Returns how many (studio, address) suppressions are new.
 */
export async function applyFeedback(db: Db, events: FeedbackEvent[], now: Date): Promise<number> {
  let added = 0;
  for (const e of events) {
    const address = e.email.trim().toLowerCase();
    const q = db('campaign_recipients as r')
      .join('campaigns as c', 'c.id', 'r.campaign_id')
      .whereRaw('lower(r.address) = ?', [address])
      .distinct('c.studio_id as studioId', 'r.user_id as userId');
    if (e.campaignId) q.where('c.id', e.campaignId);
    const targets = (await q) as Array<{ studioId: string; userId: string }>;
    for (const t of targets) {
      const inserted = await db('mail_suppressions')
        .insert({ studioId: t.studioId, address, reason: e.type, detail: e.detail })
        .onConflict(['studioId', 'address'])
        .ignore()
        .returning('address');
      added += inserted.length;
      if (e.type === 'bounce')
        await recordEmailBounce(db, t.studioId, t.userId, {
          email: address,
          reason: 'noMailbox',
          message: e.detail,
          at: now,
        });
    }
  }
  return added;
}

export async function receiveFeedback(db: Db, body: MailFeedback, now: Date): Promise<MailFeedbackResult> {
  const events: FeedbackEvent[] = (body.events ?? []).map((e) => ({
    type: e.type,
    email: e.email,
    campaignId: e.campaignId ?? null,
    detail: (e.detail ?? `provider: ${e.type}`).slice(0, 200),
  }));
  if (body.raw) events.push(...parseFeedbackMail(body.raw));
  const suppressed = await applyFeedback(db, events, now);
  return { events: events.length, suppressed };
}
