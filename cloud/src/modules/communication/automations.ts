import { v7 as uuidv7 } from 'uuid';
import {
  AUTOMATION_KINDS,
  AutomationSettingsSchema,
  ReminderStatus,
  type AutomationInit,
  type AutomationKind,
  type AutomationScenario,
  type AutomationSettings,
} from '../../../../shared/contracts/api/communication';
import { frontOfficePath } from '../../../../shared/contracts/routes';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text';
import { isLocale, type Locale } from '../../../../shared/i18n/locales';
import { AppError } from '../../../../shared/errors';
import type { Db, Knex } from '../../db/knex';
import { serverI18n } from '../../i18n';
import type { JobContext } from '../../jobs/perform';
import { enqueue } from '../../jobs/queue';
import { messageIdFor } from '../../mail/mailer';
import { findStudio, type Studio } from '../identity/index';
import { replyToOf } from './campaign-send';
import { brandColourOf, renderMail } from './mail-template';
import { formatDate, formatDateTimeLong, formatTime } from '../../../../shared/i18n/dates';
import { formatPriceIn } from '../../../../shared/domain/money';

/**
 * Automation scenarios (issue 23): a studio switches each on and tunes it; a periodic sweep
 * (`automations-sweep`, every 15 minutes) finds each scenario's occasions, writes one reminder-log
 * row per client and occasion (unique `occasion_key`: at most once, however often the sweep runs)
 * and queues its mail (`automation.mail`), sent in the client's language with times in the studio's
 * zone. Marketing scenarios (win-back, birthday) also need the client's marketing consent and no
 * e-mail opt-out; all need an e-mail address and e-mail notifications on.
 */

/** Defaults of each scenario's settings. */
export const DEFAULT_SETTINGS: Record<AutomationKind, AutomationSettings> = {
  classReminder: { hoursBefore: 24 },
  appointmentReminder: { hoursBefore: 24 },
  passExpiring: { daysBefore: 3 },
  passRunningOut: { entriesLeft: 1 },
  instalmentFailed: {},
  firstVisitFollowUp: { hoursAfter: 3 },
  winBack: { daysWithoutVisit: 30 },
  birthday: {},
  welcome: {},
  reviewRequest: { hoursAfter: 2 },
};

/** Appointments are another module's (in progress): the scenario is an extension point until then. */
export const UNAVAILABLE: ReadonlySet<AutomationKind> = new Set(['appointmentReminder']);
const MARKETING: ReadonlySet<AutomationKind> = new Set(['winBack', 'birthday']);

function scenarioOf(kind: AutomationKind, row?: { enabled: boolean; settings: unknown }): AutomationScenario {
  const parsed = AutomationSettingsSchema.safeParse(row?.settings ?? {});
  return {
    kind,
    enabled: Boolean(row?.enabled) && !UNAVAILABLE.has(kind),
    available: !UNAVAILABLE.has(kind),
    settings: { ...DEFAULT_SETTINGS[kind], ...(parsed.success ? parsed.data : {}) },
  };
}

export async function automationInit(db: Db, studioId: string): Promise<AutomationInit> {
  const rows = await db('automation_scenarios').where({ studioId });
  const log = await db('reminder_log as l')
    .leftJoin('clients as c', (j) => j.on('c.studio_id', 'l.studio_id').andOn('c.user_id', 'l.user_id'))
    .where('l.studio_id', studioId)
    .orderBy('l.id', 'desc')
    .limit(50)
    .select(
      'l.id',
      'l.kind',
      'l.address',
      'l.subject',
      'l.type',
      'l.status',
      'l.sent_at',
      'l.created_at',
      'c.first_name',
      'c.last_name',
    );
  return {
    scenarios: AUTOMATION_KINDS.map((kind) =>
      scenarioOf(
        kind,
        rows.find((r) => r.kind === kind),
      ),
    ),
    log: log.map(
      (l: {
        id: string;
        kind: AutomationKind;
        address: string;
        subject: string;
        type: number;
        status: number | null;
        sentAt: Date | null;
        createdAt: Date;
        firstName: string | null;
        lastName: string | null;
      }) => ({
        id: l.id,
        kind: l.kind,
        clientName: `${l.firstName ?? ''} ${l.lastName ?? ''}`.trim(),
        address: l.address,
        subject: l.subject,
        type: l.type,
        status: l.status,
        sentAt: l.sentAt ? l.sentAt.toISOString() : null,
        createdAt: l.createdAt.toISOString(),
      }),
    ),
  };
}

export async function saveAutomation(
  db: Db,
  studioId: string,
  input: { kind: AutomationKind; enabled: boolean; settings: AutomationSettings },
  now: Date,
): Promise<AutomationScenario> {
  if (UNAVAILABLE.has(input.kind) && input.enabled)
    throw new AppError('automation.unavailable', { message: 'appointment reminders come with appointments' });
  const settings = { ...DEFAULT_SETTINGS[input.kind], ...input.settings };
  await db('automation_scenarios')
    .insert({
      studioId,
      kind: input.kind,
      enabled: input.enabled,
      settings: JSON.stringify(settings),
      updatedAt: now,
    })
    .onConflict(['studioId', 'kind'])
    .merge({ enabled: input.enabled, settings: JSON.stringify(settings), updatedAt: now });
  return scenarioOf(input.kind, { enabled: input.enabled, settings });
}

// ------------------------------------------------------------------------------------------ sweep

interface Occasion {
  userId: string;
  key: string;
  values: Record<string, string | number>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The occasions of one scenario of one studio, now (windows bounded so switching on sends no backlog). */
async function occasionsOf(
  db: Db,
  studio: Studio,
  kind: AutomationKind,
  s: AutomationSettings,
  enabledAt: Date,
  now: Date,
): Promise<Occasion[]> {
  const sid = studio.id;
  switch (kind) {
    case 'classReminder': {
      const rows: Array<{ id: string; clientId: string; startsAt: Date; name: LocaleText }> = await db(
        'client_visits as v',
      )
        .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
        .join('class_services as cs', 'cs.id', 'e.class_service_id')
        .where('v.studio_id', sid)
        .where('v.status', 0)
        .whereNull('e.cancelled_at')
        .where('v.starts_at', '>', now)
        .where('v.starts_at', '<=', new Date(now.getTime() + (s.hoursBefore ?? 24) * HOUR))
        .select('v.id', 'v.client_id', 'v.starts_at', 'cs.name');
      return rows.map((r) => ({
        userId: r.clientId,
        key: `visit:${r.id}`,
        values: { title: JSON.stringify(r.name), startsAt: r.startsAt.toISOString() },
      }));
    }
    case 'passExpiring':
    case 'passRunningOut': {
      const q = db('client_pricing_options as p')
        .join('pricing_options as po', 'po.id', 'p.pricing_option_id')
        .where('p.studio_id', sid)
        .where('p.status', 1);
      if (kind === 'passExpiring')
        q.where('p.expires_at', '>', now).where(
          'p.expires_at',
          '<=',
          new Date(now.getTime() + (s.daysBefore ?? 3) * DAY),
        );
      else
        q.whereNotNull('p.entries')
          .where('p.entries', '>', 0)
          .where('p.entries', '<=', s.entriesLeft ?? 1);
      const rows: Array<{
        id: string;
        clientId: string;
        expiresAt: Date | null;
        entries: number | null;
        name: LocaleText;
      }> = await q.select('p.id', 'p.client_id', 'p.expires_at', 'p.entries', 'po.name');
      return rows.map((r) => ({
        userId: r.clientId,
        key: `${kind}:${r.id}`,
        values: {
          title: JSON.stringify(r.name),
          ...(r.expiresAt ? { expiresAt: r.expiresAt.toISOString() } : {}),
          entries: r.entries ?? 0,
        },
      }));
    }
    case 'instalmentFailed': {
      // An instalment still due a day after its date: its charge did not go through.
      const rows: Array<{ id: string; clientId: string; amount: number; name: LocaleText }> = await db(
        'client_contract_instalments as i',
      )
        .join('client_contracts as cc', 'cc.id', 'i.client_contract_id')
        .join('contracts as k', 'k.id', 'cc.contract_id')
        .where('i.studio_id', sid)
        .where('i.status', 'due')
        .where('i.due_on', '<', new Date(now.getTime() - DAY))
        .where('i.due_on', '>=', new Date(now.getTime() - 8 * DAY))
        .select('i.id', 'cc.client_id', 'i.amount', 'k.name');
      return rows.map((r) => ({
        userId: r.clientId,
        key: `instalment:${r.id}`,
        values: { title: JSON.stringify(r.name), amount: r.amount },
      }));
    }
    case 'firstVisitFollowUp':
    case 'reviewRequest': {
      const after = (s.hoursAfter ?? 3) * HOUR;
      const q = db('client_visits as v')
        .join('schedule_events as e', 'e.id', 'v.schedule_event_id')
        .join('class_services as cs', 'cs.id', 'e.class_service_id')
        .where('v.studio_id', sid)
        .where('v.status', 1)
        .where('e.ends_at', '<=', new Date(now.getTime() - after))
        .where('e.ends_at', '>', new Date(now.getTime() - after - DAY));
      if (kind === 'firstVisitFollowUp')
        q.whereNotExists(
          db('client_visits as w')
            .select(db.raw('1'))
            .whereRaw(
              'w.studio_id = v.studio_id and w.client_id = v.client_id and w.status = 1 and w.starts_at < v.starts_at',
            ),
        );
      const rows: Array<{ id: string; clientId: string; name: LocaleText }> = await q.select(
        'v.id',
        'v.client_id',
        'cs.name',
      );
      return rows.map((r) => ({
        userId: r.clientId,
        key: kind === 'firstVisitFollowUp' ? 'first-visit' : `review:${r.id}`,
        values: { title: JSON.stringify(r.name) },
      }));
    }
    case 'winBack': {
      const days = s.daysWithoutVisit ?? 30;
      const rows: { rows: Array<{ user_id: string; last_id: string }> } = await db.raw(
        `select v.client_id as user_id, max(v.id::text) as last_id from client_visits v
          where v.studio_id = ? and v.status = 1
          group by v.client_id
          having max(v.starts_at) <= ? and max(v.starts_at) > ?
             and not exists (select 1 from client_visits f where f.studio_id = ? and f.client_id = v.client_id
                               and f.status = 0 and f.starts_at > ?)`,
        [sid, new Date(now.getTime() - days * DAY), new Date(now.getTime() - (days + 7) * DAY), sid, now],
      );
      return rows.rows.map((r) => ({ userId: r.user_id, key: `win-back:${r.last_id}`, values: { days } }));
    }
    case 'birthday': {
      const md = Number(
        new Intl.DateTimeFormat('en-CA', { timeZone: studio.timeZone, month: '2-digit', day: '2-digit' })
          .format(now)
          .replace('-', ''),
      );
      const year = new Intl.DateTimeFormat('en-CA', { timeZone: studio.timeZone, year: 'numeric' }).format(
        now,
      );
      const rows: Array<{ userId: string }> = await db('clients')
        .where({ studioId: sid, birthMd: md })
        .whereNull('archivedAt')
        .select('userId');
      return rows.map((r) => ({ userId: r.userId, key: `birthday:${year}`, values: {} }));
    }
    case 'welcome': {
      const since = new Date(Math.max(enabledAt.getTime(), now.getTime() - 2 * DAY));
      const rows: Array<{ userId: string }> = await db('clients')
        .where({ studioId: sid })
        .where('createdAt', '>=', since)
        .whereNull('archivedAt')
        .select('userId');
      return rows.map((r) => ({ userId: r.userId, key: 'welcome', values: {} }));
    }
    case 'appointmentReminder':
      return [];
  }
}

interface Contact {
  email: string | null;
  firstName: string;
  locale: string | null;
  notifyEmail: boolean | null;
  consent: boolean;
  optedOut: boolean;
}

async function contactOf(db: Db, studioId: string, userId: string): Promise<Contact | undefined> {
  return db('clients as c')
    .join('users as u', 'u.id', 'c.user_id')
    .leftJoin('user_profiles as p', 'p.user_id', 'c.user_id')
    .where({ 'c.studio_id': studioId, 'c.user_id': userId })
    .whereNull('c.archived_at')
    .first(
      db.raw(`case when c.email not like '%.invalid' then c.email end as email`),
      'c.first_name',
      'u.locale',
      'p.notify_email',
      db.raw(
        `coalesce((select a.accepted from client_agreement_acceptances a where a.studio_id = c.studio_id
          and a.user_id = c.user_id and a.kind = 'marketing' order by a.decided_at desc limit 1), false) as consent`,
      ),
      db.raw(
        `(exists (select 1 from communication_opt_outs o where o.studio_id = c.studio_id and o.user_id = c.user_id and o.channel = 'email')
          or exists (select 1 from mail_suppressions s where s.studio_id = c.studio_id and s.address = lower(c.email))) as opted_out`,
      ),
    );
}

const localeOf = (userLocale: string | null, studio: Studio): Locale =>
  isLocale(userLocale) ? userLocale : isLocale(studio.defaultLocale) ? studio.defaultLocale : 'en';

/** The message's words: its texts (`automation.<kind>`) with the occasion's values, formatted for the client. */
export function automationText(
  kind: string,
  locale: Locale,
  studio: Studio,
  name: string,
  values: Record<string, unknown>,
  publicUrl: string,
): { subject: string; body: string } {
  const t = serverI18n().instance.getFixedT(locale, 'communication');
  const vars: Record<string, string> = {
    name,
    studio: studio.name,
    link: `${publicUrl}${frontOfficePath(studio.id)}`,
  };
  if (typeof values.title === 'string') {
    try {
      vars.title = resolveLocaleText(JSON.parse(values.title) as LocaleText, locale, studio.defaultLocale);
    } catch {
      vars.title = values.title;
    }
  }
  for (const [k, v] of Object.entries(values))
    if (k !== 'title' && vars[k] === undefined) vars[k] = String(v);
  if (typeof values.startsAt === 'string') {
    const at = new Date(values.startsAt);
    vars.time = formatTime(at, locale, studio.timeZone);
    vars.when = formatDateTimeLong(at, locale, studio.timeZone);
  }
  if (typeof values.expiresAt === 'string') vars.date = formatDate(values.expiresAt, locale, studio.timeZone);
  if (typeof values.amount === 'number') vars.amount = formatPriceIn(locale, values.amount, studio.currency);
  if (typeof values.link === 'string') vars.link = values.link;
  return { subject: t(`automation.${kind}.subject`, vars), body: t(`automation.${kind}.body`, vars) };
}

/** One sweep of every studio's enabled scenarios; returns how many messages were queued. */
export async function sweepAutomations(
  knex: Knex,
  now: Date,
  publicUrl = '',
  onlyStudioId?: string,
): Promise<number> {
  const q = knex('automation_scenarios').where({ enabled: true });
  // One studio only: a test on the shared database sweeps its own studio.
  if (onlyStudioId) q.where({ studioId: onlyStudioId });
  const scenarios = await q;
  let queued = 0;
  for (const row of scenarios) {
    const kind = row.kind as AutomationKind;
    if (!AUTOMATION_KINDS.includes(kind) || UNAVAILABLE.has(kind)) continue;
    const studio = await findStudio(knex, row.studioId);
    if (!studio) continue;
    const settings = scenarioOf(kind, row).settings;
    for (const o of await occasionsOf(knex, studio, kind, settings, row.updatedAt, now)) {
      const contact = await contactOf(knex, studio.id, o.userId);
      if (!contact?.email || contact.notifyEmail === false) continue;
      if (MARKETING.has(kind) && (!contact.consent || contact.optedOut)) continue;
      const locale = localeOf(contact.locale, studio);
      const { subject } = automationText(kind, locale, studio, contact.firstName, o.values, publicUrl);
      await knex.transaction(async (trx) => {
        const [log] = await trx('reminder_log')
          .insert({
            id: uuidv7(),
            studioId: studio.id,
            userId: o.userId,
            kind,
            occasionKey: o.key,
            type: 0,
            address: contact.email!,
            subject: subject.slice(0, 200),
            locale,
            values: JSON.stringify(o.values),
            createdAt: now,
          })
          .onConflict(['studioId', 'userId', 'kind', 'occasionKey'])
          .ignore()
          .returning('id');
        if (!log) return;
        await enqueue(trx, 'automation.mail', { logId: log.id }, { key: `automation.mail:${log.id}` });
        queued += 1;
      });
    }
  }
  return queued;
}

export interface AutomationMailJob {
  logId: string;
}

/** Sends one reminder-log row's mail and records it sent (or failed, when the address bounced). */
export async function performAutomationMail(
  job: AutomationMailJob,
  ctx: JobContext & { key: string },
): Promise<void | { record(trx: Knex.Transaction): Promise<void> }> {
  const log = await ctx.knex('reminder_log').where({ id: job.logId }).first();
  if (!log || log.status !== null) return;
  const studio = await findStudio(ctx.knex, log.studioId);
  const client = await ctx
    .knex('clients')
    .where({ studioId: log.studioId, userId: log.userId })
    .first('firstName');
  if (!studio || !client) return;
  const locale = localeOf(log.locale, studio);
  const publicUrl = ctx.publicUrl();
  const text = automationText(
    log.kind,
    locale,
    studio,
    client.firstName,
    (log.values ?? {}) as Record<string, unknown>,
    publicUrl,
  );
  const mail = await renderMail({
    studioName: studio.name,
    logoUrl: studio.logoUrl,
    primaryColor: brandColourOf(studio),
    locale,
    subject: text.subject,
    body: text.body,
    unsubscribe: false,
    baseUrl: publicUrl,
  });
  let status: number = ReminderStatus.sent;
  let error: string | null = null;
  try {
    const replyTo = replyToOf(studio);
    await ctx.mailer.send({
      to: log.address,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      fromName: studio.name,
      language: locale,
      ...(replyTo ? { replyTo } : {}),
      messageId: messageIdFor(ctx.key),
    });
  } catch (err) {
    const e = err as { responseCode?: number; code?: string; response?: string };
    if (!(typeof e.responseCode === 'number' && e.responseCode >= 500 && e.code === 'EENVELOPE')) throw err;
    status = ReminderStatus.failed;
    error = (e.response ?? 'rejected').slice(0, 200);
  }
  const sentAt = ctx.clock.now();
  return {
    async record(trx) {
      await trx('reminder_log')
        .where({ id: log.id })
        .update({ status, error, sentAt: status === ReminderStatus.sent ? sentAt : null });
    },
  };
}
