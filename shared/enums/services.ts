/** The kinds of service a studio sells (spec §3). */
export const ServiceType = {
  classroom: 'classroom',
  course: 'course',
  appointment: 'appointment',
  entry: 'entry',
  video: 'video',
} as const;
export type ServiceType = (typeof ServiceType)[keyof typeof ServiceType];

/**
 * The pricing-option variant of each service type (spec §3: "each with a matching pricing-option
 * variant"): a pricing option records which kind of service it pays for under these names, so a pass
 * for classes is never mistaken for the class service itself.
 */
export const PricingOptionServiceType = {
  classroom: 'classroomPricingOption',
  course: 'coursePricingOption',
  appointment: 'appointmentPricingOption',
  entry: 'entryPricingOption',
  video: 'videoPricingOption',
} as const satisfies Record<ServiceType, string>;
export type PricingOptionServiceType =
  (typeof PricingOptionServiceType)[keyof typeof PricingOptionServiceType];

/** What a client's booking or purchase of a service is recorded as. */
export const AppointmentEnrollmentType = {
  clientVisit: 'clientVisit',
  clientAppointment: 'clientAppointment',
  clientEntry: 'clientEntry',
  clientVideo: 'clientVideo',
  timeReservation: 'timeReservation',
} as const;
export type AppointmentEnrollmentType =
  (typeof AppointmentEnrollmentType)[keyof typeof AppointmentEnrollmentType];

export function pricingOptionServiceTypeOf(serviceType: ServiceType): PricingOptionServiceType {
  return PricingOptionServiceType[serviceType];
}

const SERVICE_TYPE_BY_PRICING_OPTION_SERVICE_TYPE = new Map<PricingOptionServiceType, ServiceType>(
  (Object.entries(PricingOptionServiceType) as [ServiceType, PricingOptionServiceType][]).map(
    ([serviceType, variant]) => [variant, serviceType],
  ),
);

export function serviceTypeOfPricingOptionServiceType(variant: PricingOptionServiceType): ServiceType {
  const serviceType = SERVICE_TYPE_BY_PRICING_OPTION_SERVICE_TYPE.get(variant);
  // Unreachable for typed input; guards values that came from storage or the wire unchecked.
  if (serviceType === undefined)
    throw new RangeError(`unknown pricing-option service type: ${String(variant)}`);
  return serviceType;
}

/**
 * Spec §3 maps classroom and course to clientVisit (a course is a series of classes, each attended
 * as a visit), appointment to clientAppointment and entry to clientEntry. The spec is silent on
 * video; it maps to clientVideo because buying video access creates a client video (the spec's
 * "client video" entity), not a visit to a scheduled event. No service type maps to timeReservation:
 * we read it as the enrollment of resource appointment events (a room or equipment held for a time).
 */
export const ENROLLMENT_TYPE_BY_SERVICE_TYPE = {
  classroom: AppointmentEnrollmentType.clientVisit,
  course: AppointmentEnrollmentType.clientVisit,
  appointment: AppointmentEnrollmentType.clientAppointment,
  entry: AppointmentEnrollmentType.clientEntry,
  video: AppointmentEnrollmentType.clientVideo,
} as const satisfies Record<ServiceType, AppointmentEnrollmentType>;

export function enrollmentTypeOf(serviceType: ServiceType): AppointmentEnrollmentType {
  return ENROLLMENT_TYPE_BY_SERVICE_TYPE[serviceType];
}

/** A visit event is a client's booked session; a resource event reserves a room or equipment for time. */
export const AppointmentEventType = {
  visit: 'visit',
  resource: 'resource',
} as const;
export type AppointmentEventType = (typeof AppointmentEventType)[keyof typeof AppointmentEventType];

/** Whether a client's appointment request is confirmed at once or waits for staff. */
export const ConfirmationType = {
  auto: 'auto',
  manual: 'manual',
} as const;
export type ConfirmationType = (typeof ConfirmationType)[keyof typeof ConfirmationType];
