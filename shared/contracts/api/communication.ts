import { z } from 'zod';
import { LOCALES } from '../../i18n/locales';
import { BULK_MAX_CLIENTS, ClientFilterSchema } from './clients';
import { instant, requiredText, text, uuid } from './common';

/**
 * Communication (issue 23): campaigns to clients (email, SMS, push, inbox), their content per
 * language, the recipients a filter of the client list finds, the studio's automation scenarios and
 * the reminder log. Spec §3: Campaign type 0 email, 1 sms, 2 push, 3 inbox; status 0 draft, 1 sent,
 * 2 in progress, 3 scheduled, 4 paused. Reminder type 0 email; status 0 failed, 1 sent.
 */
export const CampaignType = { email: 0, sms: 1, push: 2, inbox: 3 } as const;
export type CampaignType = (typeof CampaignType)[keyof typeof CampaignType];
export const CampaignStatus = { draft: 0, sent: 1, inProgress: 2, scheduled: 3, paused: 4 } as const;
export type CampaignStatus = (typeof CampaignStatus)[keyof typeof CampaignStatus];
export const ReminderStatus = { failed: 0, sent: 1 } as const;

export const CAMPAIGN_CHANNELS = ['email', 'sms', 'push', 'inbox'] as const;
export type CampaignChannel = (typeof CAMPAIGN_CHANNELS)[number];
export const channelOf = (type: CampaignType): CampaignChannel => CAMPAIGN_CHANNELS[type];

export const SUBJECT_MAX = 200;
export const BODY_MAX = 20_000;
/** The longest SMS a campaign sends: 6 segments (918 GSM-7 or 402 UCS-2 characters). */
export const SMS_MAX_SEGMENTS = 6;

const campaignType = () =>
  z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'type: 0 to 3' });

export const LocaleContentSchema = z.strictObject({
  subject: text(SUBJECT_MAX).default(''),
  body: text(BODY_MAX).default(''),
});
export type LocaleContent = z.infer<typeof LocaleContentSchema>;

/** The texts per language; a client gets their language's, else the studio's default language's. */
export const CampaignContentSchema = z.strictObject({
  pl: LocaleContentSchema.optional(),
  en: LocaleContentSchema.optional(),
});
export type CampaignContent = z.infer<typeof CampaignContentSchema>;

/**
 * Who a campaign goes to: the client list's filters (without its sort); `clientIds` narrows it to
 * chosen clients (the client list's bulk message).
 */
export const CampaignFilterSchema = ClientFilterSchema.omit({ sort: true })
  .partial()
  .extend({ clientIds: z.array(uuid()).max(BULK_MAX_CLIENTS).optional() });
export type CampaignFilter = z.infer<typeof CampaignFilterSchema>;

export const CampaignCreateSchema = z.strictObject({
  name: requiredText(120),
  type: campaignType(),
  filter: CampaignFilterSchema.default({}),
  content: CampaignContentSchema.default({}),
});

export const CAMPAIGN_ACTIONS = ['send', 'schedule', 'unschedule', 'pause', 'resume'] as const;
export type CampaignAction = (typeof CAMPAIGN_ACTIONS)[number];

/** PATCH campaign/{id}: edit a draft (name, type, filter) or act on it (send now, schedule, pause …). */
export const CampaignPatchSchema = z
  .strictObject({
    name: requiredText(120).optional(),
    type: campaignType().optional(),
    filter: CampaignFilterSchema.optional(),
    action: z.enum(CAMPAIGN_ACTIONS).optional(),
    /** With `schedule`: when to start sending. */
    scheduledAt: instant().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.action === 'schedule' && !b.scheduledAt)
      ctx.addIssue({ code: 'custom', path: ['scheduledAt'], message: 'required to schedule' });
  });

export const CampaignStatsSchema = z.object({
  recipients: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  pending: z.number().int(),
  unsubscribed: z.number().int(),
});

/** An image or PDF for a campaign, at most this many bytes (sent as a data URL in the JSON body). */
export const CAMPAIGN_FILE_MAX_BYTES = 700 * 1024;
export const CAMPAIGN_FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
] as const;

/** `POST campaign/upload`: the draft's image (shown above the text) or file (linked under it). */
export const CampaignUploadSchema = z.strictObject({
  campaign: uuid(),
  name: requiredText(120),
  dataUrl: z
    .string()
    .max(Math.ceil((CAMPAIGN_FILE_MAX_BYTES * 4) / 3) + 64, 'the file is too large (at most 700 KB)')
    .regex(
      /^data:(image\/(png|jpeg|gif|webp)|application\/pdf);base64,[A-Za-z0-9+/=]+$/,
      'send a PNG, JPEG, GIF or WebP image or a PDF',
    ),
});
export type CampaignUpload = z.infer<typeof CampaignUploadSchema>;

export const CampaignAttachmentSchema = z.object({
  name: z.string(),
  type: z.string(),
  size: z.number().int(),
  url: z.string(),
});
export type CampaignAttachment = z.infer<typeof CampaignAttachmentSchema>;

/**
 * Why a scheduled campaign did not start (issue 25): at its time the studio's credits did not cover
 * it; it went back to a draft. Cleared when it is sent or scheduled again.
 */
export const CampaignStopReasonSchema = z.object({
  key: z.enum(['smsCreditsExhausted', 'emailCreditsExhausted']),
  needed: z.number().int(),
  available: z.number().int(),
  at: z.string(),
});
export type CampaignStopReason = z.infer<typeof CampaignStopReasonSchema>;

export const CampaignViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: campaignType(),
  status: z.number().int(),
  filter: CampaignFilterSchema,
  content: CampaignContentSchema,
  attachment: CampaignAttachmentSchema.nullable(),
  scheduledAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  stopReason: CampaignStopReasonSchema.nullable(),
  stats: CampaignStatsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignView = z.infer<typeof CampaignViewSchema>;

export const CampaignListItemSchema = CampaignViewSchema.pick({
  id: true,
  name: true,
  type: true,
  status: true,
  scheduledAt: true,
  finishedAt: true,
  stopReason: true,
  stats: true,
  updatedAt: true,
});
export type CampaignListItem = z.infer<typeof CampaignListItemSchema>;

export const CampaignListSchema = z.object({
  items: z.array(CampaignListItemSchema),
  next: z.string().nullable(),
});
export type CampaignList = z.infer<typeof CampaignListSchema>;

export const CampaignListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: uuid().optional(),
});

/** `GET campaign/find-recipients`: the channel and the filter (JSON) in the query string. */
export const FindRecipientsQuerySchema = z.strictObject({
  type: z.coerce.number().pipe(campaignType()),
  filter: z
    .preprocess((v) => {
      if (typeof v !== 'string') return v;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    }, CampaignFilterSchema)
    .default({}),
});

export const RecipientsSchema = z.object({
  /** Clients the filter finds. */
  matched: z.number().int(),
  /** Of them, those the message would reach (address, consent, not opted out or suppressed). */
  reachable: z.number().int(),
  withoutAddress: z.number().int(),
  withoutConsent: z.number().int(),
  optedOut: z.number().int(),
  sample: z.array(z.object({ id: z.string(), name: z.string(), address: z.string() })),
});
export type Recipients = z.infer<typeof RecipientsSchema>;

export const CampaignCostSchema = z.object({
  type: campaignType(),
  recipients: z.number().int(),
  /** SMS: characters, encoding and segments of the longest language's text. */
  sms: z
    .object({
      characters: z.number().int(),
      encoding: z.enum(['GSM-7', 'UCS-2']),
      segments: z.number().int(),
    })
    .nullable(),
  /** Price of one message (an SMS segment), minor units. */
  unitPrice: z.number().int(),
  /** Minor units (grosze). */
  total: z.number().int(),
  currency: z.string(),
});
export type CampaignCost = z.infer<typeof CampaignCostSchema>;

const locale = () => z.enum(LOCALES);

export const TemplatePreviewInputSchema = z.strictObject({
  type: campaignType().default(0),
  locale: locale(),
  subject: text(SUBJECT_MAX).default(''),
  body: text(BODY_MAX).default(''),
});

export const TemplatePreviewSchema = z.object({
  subject: z.string(),
  html: z.string().nullable(),
  text: z.string(),
  sms: z
    .object({
      characters: z.number().int(),
      encoding: z.enum(['GSM-7', 'UCS-2']),
      segments: z.number().int(),
    })
    .nullable(),
});
export type TemplatePreview = z.infer<typeof TemplatePreviewSchema>;

/** Sends a campaign's text in one language to the caller's own address, marked as a test. */
export const TemplateTestInputSchema = z.strictObject({ campaignId: uuid(), locale: locale() });
export const TemplateTestSchema = z.object({ sentTo: z.string() });

export const STARTER_TEMPLATES = ['newsletter', 'promotion', 'event', 'winBack'] as const;
export const TemplateLoadInputSchema = z.strictObject({
  template: z.enum(STARTER_TEMPLATES),
  locale: locale(),
});
export const TemplateLoadSchema = z.object({
  template: z.enum(STARTER_TEMPLATES),
  content: LocaleContentSchema,
});

export const UnsubscribeViewSchema = z.object({
  studioName: z.string(),
  channel: z.enum(CAMPAIGN_CHANNELS),
  unsubscribed: z.boolean(),
});
export type UnsubscribeView = z.infer<typeof UnsubscribeViewSchema>;

/** RFC 8058: the one-click POST carries `List-Unsubscribe=One-Click` (form-encoded, not parsed). */
export const UnsubscribeParamsSchema = z.object({
  token: z.string().regex(/^[0-9a-f]{32}$/, 'invalid token'),
});

// ------------------------------------------------------------------------------------ automations

export const AUTOMATION_KINDS = [
  'classReminder',
  'appointmentReminder',
  'passExpiring',
  'passRunningOut',
  'instalmentFailed',
  'firstVisitFollowUp',
  'winBack',
  'birthday',
  'welcome',
  'reviewRequest',
] as const;
export type AutomationKind = (typeof AUTOMATION_KINDS)[number];

export const AutomationSettingsSchema = z.strictObject({
  /** classReminder, appointmentReminder: hours before the start. */
  hoursBefore: z.number().int().min(1).max(72).optional(),
  /** passExpiring: days before the end. */
  daysBefore: z.number().int().min(1).max(30).optional(),
  /** passRunningOut: entries left. */
  entriesLeft: z.number().int().min(1).max(10).optional(),
  /** winBack: days without a visit. */
  daysWithoutVisit: z.number().int().min(7).max(365).optional(),
  /** firstVisitFollowUp, reviewRequest: hours after the visit. */
  hoursAfter: z.number().int().min(1).max(168).optional(),
});
export type AutomationSettings = z.infer<typeof AutomationSettingsSchema>;

export const AutomationPutSchema = z.strictObject({
  kind: z.enum(AUTOMATION_KINDS),
  enabled: z.boolean(),
  settings: AutomationSettingsSchema.default({}),
});

export const AutomationScenarioSchema = z.object({
  kind: z.enum(AUTOMATION_KINDS),
  enabled: z.boolean(),
  /** False: an extension point another module has not filled yet (appointments). */
  available: z.boolean(),
  settings: AutomationSettingsSchema,
});
export type AutomationScenario = z.infer<typeof AutomationScenarioSchema>;

export const ReminderLogEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(AUTOMATION_KINDS),
  clientName: z.string(),
  address: z.string(),
  subject: z.string(),
  type: z.number().int(),
  /** 0 failed, 1 sent, null queued. */
  status: z.number().int().nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ReminderLogEntry = z.infer<typeof ReminderLogEntrySchema>;

export const AutomationInitSchema = z.object({
  scenarios: z.array(AutomationScenarioSchema),
  log: z.array(ReminderLogEntrySchema),
});
export type AutomationInit = z.infer<typeof AutomationInitSchema>;

/**
 * `POST mail-feedback`: bounces and complaints that arrive later — a provider's webhook events in
 * this shape, and/or one bounce or feedback-loop mail (DSN, ARF) as its raw text. Authorised by
 * `Authorization: Bearer <MAIL_FEEDBACK_TOKEN>` (no session).
 */
export const MailFeedbackSchema = z
  .strictObject({
    events: z
      .array(
        z.strictObject({
          type: z.enum(['bounce', 'complaint']),
          email: z.string().trim().email().max(254),
          campaignId: uuid().optional(),
          detail: text(200).optional(),
        }),
      )
      .max(500)
      .optional(),
    raw: z.string().max(900_000).optional(),
  })
  .refine((b) => (b.events?.length ?? 0) > 0 || Boolean(b.raw), {
    message: 'send events or a raw bounce/complaint mail',
    path: ['events'],
  });
export type MailFeedback = z.infer<typeof MailFeedbackSchema>;
export const MailFeedbackResultSchema = z.object({ events: z.number().int(), suppressed: z.number().int() });
export type MailFeedbackResult = z.infer<typeof MailFeedbackResultSchema>;

/** Web push (front office): the installation's VAPID public key, for `pushManager.subscribe`. */
export const WebPushKeySchema = z.object({ publicKey: z.string() });
const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'not base64url');
/** A browser's `PushSubscription.toJSON()`. */
export const PushSubscribeSchema = z.strictObject({
  endpoint: z.string().url().max(1000),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({ p256dh: base64url(200), auth: base64url(100) }),
});
export type PushSubscribe = z.infer<typeof PushSubscribeSchema>;
export const PushUnsubscribeSchema = z.strictObject({ endpoint: z.string().url().max(1000) });
export const PushSubscribedSchema = z.object({ subscribed: z.boolean() });
