export const StudioType = {
  fitness: 0,
  yoga: 1,
  pilates: 2,
  danceSchool: 3,
  martialArts: 4,
  gym: 5,
  training: 6,
  crossfit: 7,
  other: 8,
  boxing: 9,
  poleDance: 10,
  cheerleading: 11,
  jumpingFitness: 12,
  zumba: 13,
} as const;
export type StudioType = (typeof StudioType)[keyof typeof StudioType];

/** How the studio heard about the platform, asked at sign-up. */
export const StudioAcquisitionChannel = {
  google: 0,
  facebook: 1,
  friend: 2,
  newsletter: 3,
  other: 4,
} as const;
export type StudioAcquisitionChannel =
  (typeof StudioAcquisitionChannel)[keyof typeof StudioAcquisitionChannel];

/** The platform services a studio subscribes to (spec §3 "Subscription"). */
export const SubscriptionService = {
  booking: 'booking',
  email: 'email',
  sms: 'sms',
} as const;
export type SubscriptionService = (typeof SubscriptionService)[keyof typeof SubscriptionService];

/** DAC7 platform-operator tax report. */
export const TaxReportStatus = {
  requireInput: 'requireInput',
  completed: 'completed',
} as const;
export type TaxReportStatus = (typeof TaxReportStatus)[keyof typeof TaxReportStatus];
