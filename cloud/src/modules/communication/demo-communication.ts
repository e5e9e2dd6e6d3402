import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { CampaignStatus, CampaignType } from '../../../../shared/contracts/api/communication';

const DAY = 86_400_000;

/**
 * Demo data for communication (issue 23): most demo clients agreed to marketing e-mails; a
 * newsletter went out five days ago (its recipients, a bounce and two unsubscribes), a Christmas
 * promotion waits as a draft, and four automations are on with a week of their reminder log.
 */
export async function seedDemoCommunication(
  trx: Knex,
  studioId: string,
  ownerId: string,
  clientIds: string[],
  now: Date,
): Promise<void> {
  const agreement = await trx('studio_agreements').where({ studioId, kind: 'marketing' }).first('id');
  if (!agreement) return;
  const consenting = clientIds.filter((_, i) => i % 5 !== 3);
  await trx.batchInsert(
    'client_agreement_acceptances',
    clientIds.map((userId, i) => ({
      id: uuidv7(),
      studio_id: studioId,
      user_id: userId,
      agreement_id: agreement.id,
      kind: 'marketing',
      version: 1,
      accepted: i % 5 !== 3,
      decided_at: new Date(now.getTime() - (60 + (i % 30)) * DAY),
    })),
    500,
  );
  const clients: Array<{ userId: string; email: string | null; firstName: string }> = await trx('clients')
    .where({ studioId })
    .whereIn('userId', consenting)
    .select('userId', 'email', 'firstName');
  const reachable = clients.filter((c) => c.email && !c.email.endsWith('.invalid'));

  const sentAt = new Date(now.getTime() - 5 * DAY);
  const newsletter = uuidv7();
  await trx('campaigns').insert({
    id: newsletter,
    studioId,
    name: 'Listopadowe nowości',
    type: CampaignType.email,
    status: CampaignStatus.sent,
    filter: JSON.stringify({ status: 'active' }),
    content: JSON.stringify({
      pl: {
        subject: 'Listopad w Harmonii, {firstName}',
        body: 'Cześć {firstName},\n\nod grudnia startujemy z porannym vinyasa flow we wtorki i czwartki o 7:00.\n\nGrafik: https://harmonia.example/grafik\n\nDo zobaczenia na macie!',
      },
      en: {
        subject: 'November at Harmonia, {firstName}',
        body: 'Hi {firstName},\n\nfrom December we start a morning vinyasa flow on Tuesdays and Thursdays at 7:00.\n\nSchedule: https://harmonia.example/schedule\n\nSee you on the mat!',
      },
    }),
    scheduledAt: null,
    startedAt: sentAt,
    finishedAt: new Date(sentAt.getTime() + 4 * 60_000),
    run: 1,
    recipientCount: reachable.length,
    sentCount: Math.max(0, reachable.length - 1),
    failedCount: reachable.length > 0 ? 1 : 0,
    unsubscribedCount: Math.min(2, reachable.length),
    createdBy: ownerId,
    createdAt: new Date(sentAt.getTime() - DAY),
    updatedAt: sentAt,
  });
  await trx.batchInsert(
    'campaign_recipients',
    reachable.map((c, i) => ({
      campaign_id: newsletter,
      user_id: c.userId,
      address: c.email!,
      locale: 'pl',
      first_name: c.firstName,
      status: i === 7 ? 'failed' : 'sent',
      error: i === 7 ? '550 5.1.1 mailbox unavailable' : null,
      token: uuidv7().replace(/-/g, ''),
      sent_at: i === 7 ? null : new Date(sentAt.getTime() + i * 200),
    })),
    500,
  );
  const bounced = reachable[7];
  if (bounced)
    await trx('mail_suppressions').insert({
      studioId,
      address: bounced.email!.toLowerCase(),
      reason: 'bounce',
      detail: '550 5.1.1 mailbox unavailable',
      createdAt: sentAt,
    });
  for (const c of reachable.slice(11, 13))
    await trx('communication_opt_outs').insert({
      studioId,
      userId: c.userId,
      channel: 'email',
      campaignId: newsletter,
      createdAt: new Date(sentAt.getTime() + 3 * 3_600_000),
    });

  await trx('campaigns').insert({
    id: uuidv7(),
    studioId,
    name: 'Świąteczna promocja',
    type: CampaignType.email,
    status: CampaignStatus.draft,
    filter: JSON.stringify({ status: 'active', hasValidPass: false }),
    content: JSON.stringify({
      pl: {
        subject: 'Prezent na święta: karnet -20%',
        body: 'Cześć {firstName},\n\ndo 24 grudnia każdy karnet kupisz 20% taniej — także jako prezent dla bliskiej osoby.\n\nZapraszamy!',
      },
      en: {
        subject: 'A Christmas gift: 20% off passes',
        body: 'Hi {firstName},\n\nuntil 24 December every pass is 20% off — also as a gift for someone close.\n\nSee you soon!',
      },
    }),
    createdBy: ownerId,
    createdAt: new Date(now.getTime() - DAY),
    updatedAt: new Date(now.getTime() - DAY),
  });

  const scenarios = [
    { kind: 'classReminder', settings: { hoursBefore: 24 } },
    { kind: 'passExpiring', settings: { daysBefore: 3 } },
    { kind: 'birthday', settings: {} },
    { kind: 'welcome', settings: {} },
  ];
  await trx('automation_scenarios').insert(
    scenarios.map((s) => ({
      studioId,
      kind: s.kind,
      enabled: true,
      settings: JSON.stringify(s.settings),
      updatedAt: new Date(now.getTime() - 30 * DAY),
    })),
  );
  const log = reachable.slice(0, 10).map((c, i) => {
    const kind = (['classReminder', 'classReminder', 'passExpiring', 'birthday', 'welcome'] as const)[i % 5]!;
    const at = new Date(now.getTime() - (i + 1) * 15 * 3_600_000);
    const subjects = {
      classReminder: 'Przypomnienie: Vinyasa Flow o 18:00',
      passExpiring: 'Twój karnet wygasa za 3 dni',
      birthday: 'Wszystkiego najlepszego od Harmonii!',
      welcome: 'Witamy w Harmonii',
    };
    return {
      id: uuidv7(),
      studioId,
      userId: c.userId,
      kind,
      occasionKey: `demo:${i}`,
      type: 0,
      status: i === 4 ? 0 : 1,
      address: c.email!,
      subject: subjects[kind],
      locale: 'pl',
      values: '{}',
      error: i === 4 ? '550 5.1.1 mailbox unavailable' : null,
      sentAt: i === 4 ? null : at,
      createdAt: at,
    };
  });
  if (log.length) await trx('reminder_log').insert(log);
}
