import { z } from 'zod';
import { requiredText, text, uuid } from './common';

/** Videos and video courses (issue 22; cloud/src/modules/videos/README.md). */

export const VIDEO_STATUSES = ['init', 'uploading', 'transcoding', 'available', 'failed'] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

export const VIDEO_LIMITS = {
  titleMax: 200,
  /** 10 GB: a long lesson in high quality. */
  sizeMax: 10 * 1024 ** 3,
  nameMax: 120,
  descriptionMax: 4000,
  slugMax: 80,
  eventsMax: 200,
} as const;

const LocaleTextSchema = z.record(z.string(), z.object({ value: z.string() }).optional());
const localeText = (max: number, required = true) =>
  z
    .strictObject({
      en: z.strictObject({ value: text(max) }).optional(),
      pl: z.strictObject({ value: text(max) }).optional(),
    })
    .refine((v) => !required || Object.values(v).some((t) => t && t.value !== ''), 'required');

export const VideoRenditionSchema = z.object({
  name: z.string(),
  width: z.number(),
  height: z.number(),
  bandwidth: z.number(),
});

export const VideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(VIDEO_STATUSES),
  failureReason: z.string().nullable(),
  fileName: z.string(),
  sizeBytes: z.number(),
  durationSeconds: z.number().nullable(),
  renditions: z.array(VideoRenditionSchema),
  /** Staff only: where the thumbnail is (null until transcoded). */
  thumbnailUrl: z.string().nullable(),
  /** The tus endpoint to upload (or resume) the file to, while `init` or `uploading`. */
  uploadUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type Video = z.infer<typeof VideoSchema>;
export const VideoListSchema = z.object({ items: z.array(VideoSchema), next: z.string().nullable() });

export const VideoInputSchema = z.strictObject({
  title: requiredText(VIDEO_LIMITS.titleMax),
  fileName: requiredText(255),
  sizeBytes: z
    .number('a number is required')
    .int('whole bytes')
    .min(1, 'the file is empty')
    .max(VIDEO_LIMITS.sizeMax, 'the file is larger than 10 GB'),
});
export type VideoInput = z.input<typeof VideoInputSchema>;

const slug = () =>
  z
    .string('required')
    .trim()
    .min(1, 'required')
    .max(VIDEO_LIMITS.slugMax, `at most ${VIDEO_LIMITS.slugMax} characters`)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case letters, digits and hyphens');

export const VideoServiceInputSchema = z.strictObject({
  name: localeText(VIDEO_LIMITS.nameMax),
  description: localeText(VIDEO_LIMITS.descriptionMax, false).default({}),
  slug: slug(),
  published: z.boolean().default(true),
  /** Price of a one-off purchase in minor units; null: sold only through passes and contracts. */
  price: z.number().int('whole minor units').min(0).max(10_000_000).nullable().default(null),
  /** The line's VAT rate when bought (basis points as text, or `exempt`). */
  vatRate: z.enum(['2300', '800', '500', '0', 'exempt']).default('2300'),
  events: z
    .array(z.strictObject({ videoId: uuid(), name: localeText(VIDEO_LIMITS.nameMax) }))
    .max(VIDEO_LIMITS.eventsMax, `at most ${VIDEO_LIMITS.eventsMax}`)
    .default([]),
});
export type VideoServiceInput = z.input<typeof VideoServiceInputSchema>;
export const VideoServicePatchSchema = z.strictObject({
  name: VideoServiceInputSchema.shape.name.optional(),
  description: localeText(VIDEO_LIMITS.descriptionMax, false).optional(),
  slug: slug().optional(),
  published: z.boolean().optional(),
  price: VideoServiceInputSchema.shape.price.unwrap().optional(),
  vatRate: VideoServiceInputSchema.shape.vatRate.unwrap().optional(),
  events: VideoServiceInputSchema.shape.events.unwrap().optional(),
});
export type VideoServicePatch = z.input<typeof VideoServicePatchSchema>;

export const VideoEventSchema = z.object({
  id: z.string(),
  videoServiceId: z.string(),
  videoId: z.string(),
  name: LocaleTextSchema,
  position: z.number(),
  videoStatus: z.enum(VIDEO_STATUSES),
  durationSeconds: z.number().nullable(),
  /** Watch metrics over every client: clients with access, average progress (0–1), completions. */
  stats: z.object({ clients: z.number(), averageProgress: z.number(), completed: z.number() }),
});
export type VideoEvent = z.infer<typeof VideoEventSchema>;
export const VideoEventListQuerySchema = z.strictObject({ videoServiceId: uuid() });
export const VideoEventListSchema = z.object({
  items: z.array(VideoEventSchema),
  next: z.string().nullable(),
});

export const VideoServiceSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  description: LocaleTextSchema,
  slug: z.string(),
  published: z.boolean(),
  price: z.number().nullable(),
  vatRate: z.string(),
  events: z.array(VideoEventSchema),
});
export type VideoService = z.infer<typeof VideoServiceSchema>;
export const VideoServiceListSchema = z.object({
  items: z.array(VideoServiceSchema),
  next: z.string().nullable(),
});

export const VideoServiceInitSchema = z.object({
  videos: z.array(z.object({ id: z.string(), title: z.string(), status: z.enum(VIDEO_STATUSES) })),
  limits: z.object({
    nameMax: z.number(),
    descriptionMax: z.number(),
    slugMax: z.number(),
    eventsMax: z.number(),
  }),
});

export const ClientVideoSchema = z.object({
  id: z.string(),
  videoEventId: z.string(),
  videoServiceId: z.string(),
  courseName: LocaleTextSchema,
  lessonName: LocaleTextSchema,
  access: z.enum(['pass', 'contract', 'purchase']),
  positionSeconds: z.number(),
  watchedSeconds: z.number(),
  progress: z.number(),
  completedAt: z.string().nullable(),
  lastWatchedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ClientVideo = z.infer<typeof ClientVideoSchema>;
export const ClientVideoListSchema = z.object({
  items: z.array(ClientVideoSchema),
  next: z.string().nullable(),
});

export const VideoMetricInputSchema = z.strictObject({
  /** Where the player is now, in seconds. */
  positionSeconds: z.number().min(0).max(86_400),
  /** Seconds played since the last report (the player reports every ~15 s and at pause/end). */
  watchedSeconds: z.number().min(0).max(600),
  ended: z.boolean().default(false),
});
export type VideoMetricInput = z.input<typeof VideoMetricInputSchema>;

/** Front office: a lesson as a client sees it. */
export const VideoLessonSchema = z.object({
  id: z.string(),
  name: LocaleTextSchema,
  position: z.number(),
  available: z.boolean(),
  durationSeconds: z.number().nullable(),
  thumbnailUrl: z.string().nullable(),
  /** The client's progress (0–1), null when never watched. */
  progress: z.number().nullable(),
});
export const VideoAccessReasonSchema = z.string().nullable();
export const VideoCourseSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: LocaleTextSchema,
  description: LocaleTextSchema,
  thumbnailUrl: z.string().nullable(),
  lessons: z.array(VideoLessonSchema),
  /** Whether the signed-in client may watch (a covering pass or contract); null reason when they may. */
  access: z.object({
    granted: z.boolean(),
    via: z.enum(['pass', 'contract', 'purchase']).nullable(),
    reason: VideoAccessReasonSchema,
  }),
  /** One-off purchase price (minor units, the studio's currency); null when not sold on its own. */
  price: z.number().nullable(),
  currency: z.string(),
});
export type VideoCourse = z.infer<typeof VideoCourseSchema>;
export const VideoCourseListSchema = z.object({
  items: z.array(VideoCourseSchema),
  next: z.string().nullable(),
});

export const VideoBookInputSchema = z.strictObject({ videoEventId: uuid() });
export const VideoWatchSchema = z.object({
  clientVideoId: z.string(),
  /** The HLS master playlist: a signed link of this client that expires at `expiresAt`. */
  playlistUrl: z.string(),
  expiresAt: z.string(),
  positionSeconds: z.number(),
  lesson: VideoLessonSchema,
});
export type VideoWatch = z.infer<typeof VideoWatchSchema>;
