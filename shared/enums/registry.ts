import { ClientCustomFieldType, ClientNoteType, TagType } from './clients';
import { CampaignStatus, CampaignType, ReminderStatus, ReminderType } from './marketing';
import { ClientOrderRefundError, ClientOrderRefundStatus, OrderStatus, RetailItemStatus } from './orders';
import { PaymentMethod, VoucherType } from './payments';
import {
  ClientPricingOptionStatus,
  ContractActivationType,
  PricingOptionExpirationType,
} from './pricing-options';
import {
  AppointmentEnrollmentType,
  AppointmentEventType,
  ConfirmationType,
  PricingOptionServiceType,
  ServiceType,
} from './services';
import { StudioAcquisitionChannel, StudioType, SubscriptionService, TaxReportStatus } from './studios';
import { EmailBounceReason, UserAccountLinkRelationship, UserSex } from './users';
import { VideoStatus } from './videos';
import { BookingAccessibility, ClientVisitStatus } from './visits';

/**
 * Every enumeration of the spec by its label-key name, so tests and the UI (filters, selects) can walk
 * all of them. The key is also the top-level key of the "enums" i18next namespace.
 */
export const ENUMS = {
  clientVisitStatus: ClientVisitStatus,
  orderStatus: OrderStatus,
  studioType: StudioType,
  studioAcquisitionChannel: StudioAcquisitionChannel,
  userSex: UserSex,
  paymentMethod: PaymentMethod,
  voucherType: VoucherType,
  clientCustomFieldType: ClientCustomFieldType,
  clientPricingOptionStatus: ClientPricingOptionStatus,
  contractActivationType: ContractActivationType,
  retailItemStatus: RetailItemStatus,
  bookingAccessibility: BookingAccessibility,
  reminderStatus: ReminderStatus,
  reminderType: ReminderType,
  campaignType: CampaignType,
  campaignStatus: CampaignStatus,
  tagType: TagType,
  pricingOptionExpirationType: PricingOptionExpirationType,
  subscriptionService: SubscriptionService,
  videoStatus: VideoStatus,
  appointmentEnrollmentType: AppointmentEnrollmentType,
  serviceType: ServiceType,
  pricingOptionServiceType: PricingOptionServiceType,
  appointmentEventType: AppointmentEventType,
  confirmationType: ConfirmationType,
  clientNoteType: ClientNoteType,
  emailBounceReason: EmailBounceReason,
  userAccountLinkRelationship: UserAccountLinkRelationship,
  clientOrderRefundStatus: ClientOrderRefundStatus,
  clientOrderRefundError: ClientOrderRefundError,
  taxReportStatus: TaxReportStatus,
} as const satisfies Record<string, Readonly<Record<string, number | string>>>;

export type EnumName = keyof typeof ENUMS;
export type EnumValue<N extends EnumName> = (typeof ENUMS)[N][keyof (typeof ENUMS)[N]];

/** The i18next namespace holding the labels (locales/<lang>/enums.json). */
export const ENUMS_NAMESPACE = 'enums';

/** `orderStatus.1`, `videoStatus.available`: numeric enums are keyed by number so labels survive renames. */
export type EnumLabelKey<N extends EnumName = EnumName> = {
  [K in N]: `${K}.${EnumValue<K> & (string | number)}`;
}[N];

export const ENUM_NAMES = Object.keys(ENUMS) as EnumName[];

export function enumValues<N extends EnumName>(name: N): EnumValue<N>[] {
  return Object.values(ENUMS[name]) as EnumValue<N>[];
}

export function enumLabelKey<N extends EnumName>(name: N, value: EnumValue<N>): EnumLabelKey<N> {
  return `${name}.${String(value)}` as EnumLabelKey<N>;
}

/** Narrows a value from the wire or storage; compares strictly so "1" is not order status 1. */
export function isEnumValue<N extends EnumName>(name: N, value: unknown): value is EnumValue<N> {
  return (Object.values(ENUMS[name]) as unknown[]).includes(value);
}
