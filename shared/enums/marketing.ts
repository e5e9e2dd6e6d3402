export const CampaignType = {
  email: 0,
  sms: 1,
  push: 2,
  inbox: 3,
} as const;
export type CampaignType = (typeof CampaignType)[keyof typeof CampaignType];

export const CampaignStatus = {
  draft: 0,
  sent: 1,
  inProgress: 2,
  scheduled: 3,
  paused: 4,
} as const;
export type CampaignStatus = (typeof CampaignStatus)[keyof typeof CampaignStatus];

/** Payment reminders sent for unpaid orders. */
export const ReminderStatus = {
  failed: 0,
  sent: 1,
} as const;
export type ReminderStatus = (typeof ReminderStatus)[keyof typeof ReminderStatus];

export const ReminderType = {
  email: 0,
} as const;
export type ReminderType = (typeof ReminderType)[keyof typeof ReminderType];
