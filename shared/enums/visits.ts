/** Spec §3: where a client stands on one class booking. "self" variants are cancellations the client made. */
export const ClientVisitStatus = {
  booked: 0,
  present: 1,
  absent: 2,
  earlyCancel: 3,
  selfEarlyCancel: 4,
  lateCancel: 5,
  selfLateCancel: 6,
  classCancelled: 7,
  waitingList: 8,
  unconfirmed: 9,
} as const;
export type ClientVisitStatus = (typeof ClientVisitStatus)[keyof typeof ClientVisitStatus];

/** Spec §3: who may book a class online; the "for tags" variants narrow the rule to clients with chosen tags. */
export const BookingAccessibility = {
  disabledForAll: 0,
  enabledForAll: 1,
  disabledForTags: 2,
  enabledForTags: 3,
} as const;
export type BookingAccessibility = (typeof BookingAccessibility)[keyof typeof BookingAccessibility];
