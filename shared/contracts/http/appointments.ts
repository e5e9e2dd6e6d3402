import { z } from 'zod';
import {
  AppointmentActionInputSchema,
  AppointmentCategoryInputSchema,
  AppointmentCategoryViewSchema,
  AppointmentInitSchema,
  AppointmentListQuerySchema,
  AppointmentMoveInputSchema,
  AppointmentServiceInputSchema,
  AppointmentServicePatchSchema,
  AppointmentServiceViewSchema,
  CalendarQuerySchema,
  CategorizedServicesSchema,
  ClientAppointmentListSchema,
  ClientAppointmentsInitSchema,
  ClientAppointmentViewSchema,
  ClientBookInputSchema,
  ClientBookResultSchema,
  ClientCancelInputSchema,
  EnrollmentInitQuerySchema,
  EnrollmentInitSchema,
  FindSlotsInputSchema,
  MemberScheduleInitSchema,
  MemberScheduleInputSchema,
  MemberScheduleSchema,
  MyAppointmentsInputSchema,
  RangeQuerySchema,
  SlotListSchema,
  StaffCalendarSchema,
  StaffEnrollInputSchema,
  TimeReservationInputSchema,
  UnavailabilityInputSchema,
  UnavailabilityViewSchema,
} from '../api/appointments';
import { contractGroup } from './define';
import { listOf, StudioParams, studioParams } from './params';

const V4 = '/v4/:uuid';
const OptionalRange = z.strictObject({ from: z.iso.date().optional(), to: z.iso.date().optional() });

/**
 * Appointments (issue 21, `cloud/src/modules/appointments/README.md`). Staff read with
 * `schedule.view`, edit services and hours with `schedule.edit`, book and decide with
 * `schedule.book`; `appointment/find`, the categorized services and the categories answer any
 * member of the studio (clients see only what is bookable online).
 */
export const AppointmentsApi = contractGroup('appointments', {
  init: { method: 'get', path: `${V4}/appointment/init`, access: 'staff', ability: 'schedule.view', params: StudioParams, response: AppointmentInitSchema },
  find: { method: 'post', path: `${V4}/appointment/find`, access: 'studio', params: StudioParams, body: FindSlotsInputSchema, response: SlotListSchema },
  serviceCollection: { method: 'get', path: `${V4}/appointment-service/collection`, access: 'staff', ability: 'schedule.view', params: StudioParams, response: listOf(AppointmentServiceViewSchema) },
  serviceInit: { method: 'get', path: `${V4}/appointment-service/init`, access: 'staff', ability: 'schedule.view', params: StudioParams, response: AppointmentInitSchema },
  serviceCategorized: { method: 'get', path: `${V4}/appointment-service/categorized`, access: 'studio', params: StudioParams, response: CategorizedServicesSchema },
  serviceCreate: { method: 'post', path: `${V4}/appointment-service`, access: 'staff', ability: 'schedule.edit', params: StudioParams, body: AppointmentServiceInputSchema, response: AppointmentServiceViewSchema, status: 201 },
  serviceUpdate: { method: 'patch', path: `${V4}/appointment-service/:appointmentService`, access: 'staff', ability: 'schedule.edit', params: studioParams('appointmentService'), body: AppointmentServicePatchSchema, response: AppointmentServiceViewSchema },
  serviceArchive: { method: 'delete', path: `${V4}/appointment-service/:appointmentService`, access: 'staff', ability: 'schedule.edit', params: studioParams('appointmentService'), response: AppointmentServiceViewSchema },
  categoryCollection: { method: 'get', path: `${V4}/appointment-service-category/collection`, access: 'studio', params: StudioParams, response: listOf(AppointmentCategoryViewSchema) },
  categoryCreate: { method: 'post', path: `${V4}/appointment-service-category`, access: 'staff', ability: 'schedule.edit', params: StudioParams, body: AppointmentCategoryInputSchema, response: AppointmentCategoryViewSchema, status: 201 },
  categoryUpdate: { method: 'patch', path: `${V4}/appointment-service-category/:category`, access: 'staff', ability: 'schedule.edit', params: studioParams('category'), body: AppointmentCategoryInputSchema, response: AppointmentCategoryViewSchema },
  categoryDelete: { method: 'delete', path: `${V4}/appointment-service-category/:category`, access: 'staff', ability: 'schedule.edit', params: studioParams('category'), responseKind: 'empty', status: 204 },
  eventInit: { method: 'get', path: `${V4}/appointment-event/init`, access: 'staff', ability: 'schedule.view', params: StudioParams, query: CalendarQuerySchema, response: StaffCalendarSchema },
  eventCollection: { method: 'get', path: `${V4}/appointment-service/:appointmentService/appointment-event/collection`, access: 'staff', ability: 'schedule.view', params: studioParams('appointmentService'), query: OptionalRange, response: ClientAppointmentListSchema },
  eventGet: { method: 'get', path: `${V4}/appointment-event/:appointmentEvent`, access: 'staff', ability: 'schedule.view', params: studioParams('appointmentEvent'), response: ClientAppointmentViewSchema },
  enrollmentInit: { method: 'get', path: `${V4}/appointment/enrollment/init`, access: 'staff', ability: 'schedule.view', params: StudioParams, query: EnrollmentInitQuerySchema, response: EnrollmentInitSchema },
  enroll: { method: 'post', path: `${V4}/appointment/enrollment/client-appointment-enroll`, access: 'staff', ability: 'schedule.book', params: StudioParams, body: StaffEnrollInputSchema, response: ClientAppointmentViewSchema, status: 201 },
  reserve: { method: 'post', path: `${V4}/appointment/enrollment/time-reservation-enroll`, access: 'staff', ability: 'schedule.book', params: StudioParams, body: TimeReservationInputSchema, response: ClientAppointmentViewSchema, status: 201 },
  clientCollection: { method: 'get', path: `${V4}/client/:user/client-appointment/collection`, access: 'staff', ability: 'schedule.view', params: studioParams('user'), query: AppointmentListQuerySchema, response: ClientAppointmentListSchema },
  confirm: { method: 'post', path: `${V4}/client-appointment/confirm`, access: 'staff', ability: 'schedule.book', params: StudioParams, body: AppointmentActionInputSchema, response: ClientAppointmentViewSchema },
  reject: { method: 'post', path: `${V4}/client-appointment/reject`, access: 'staff', ability: 'schedule.book', params: StudioParams, body: AppointmentActionInputSchema, response: ClientAppointmentViewSchema },
  callOff: { method: 'post', path: `${V4}/client-appointment/call-off`, access: 'staff', ability: 'schedule.book', params: StudioParams, body: AppointmentActionInputSchema, response: ClientAppointmentViewSchema },
  move: { method: 'post', path: `${V4}/client-appointment/move`, access: 'staff', ability: 'schedule.book', params: StudioParams, body: AppointmentMoveInputSchema, response: ClientAppointmentViewSchema },
  checkIn: { method: 'post', path: `${V4}/client-appointment/check-in`, access: 'staff', ability: 'schedule.checkIn', params: StudioParams, body: AppointmentActionInputSchema, response: ClientAppointmentViewSchema },
  scheduleInit: { method: 'get', path: `${V4}/member/:user/appointment-schedule/init`, access: 'staff', ability: 'schedule.view', params: studioParams('user'), response: MemberScheduleInitSchema },
  scheduleCollection: { method: 'get', path: `${V4}/member/:user/appointment-schedule/collection`, access: 'staff', ability: 'schedule.view', params: studioParams('user'), response: MemberScheduleSchema },
  scheduleSave: { method: 'put', path: `${V4}/member/:user/appointment-schedule`, access: 'staff', ability: 'schedule.edit', params: studioParams('user'), body: MemberScheduleInputSchema, response: MemberScheduleSchema },
  unavailabilityInit: { method: 'get', path: `${V4}/member/:user/appointment-unavailability/init`, access: 'staff', ability: 'schedule.view', params: studioParams('user'), response: listOf(UnavailabilityViewSchema) },
  unavailabilityCollection: { method: 'get', path: `${V4}/member/:user/appointment-unavailability/collection`, access: 'staff', ability: 'schedule.view', params: studioParams('user'), query: OptionalRange, response: listOf(UnavailabilityViewSchema) },
  unavailabilityCreate: { method: 'post', path: `${V4}/member/:user/appointment-unavailability`, access: 'staff', ability: 'schedule.edit', params: studioParams('user'), body: UnavailabilityInputSchema, response: UnavailabilityViewSchema, status: 201 },
  unavailabilityDelete: { method: 'delete', path: `${V4}/appointment-unavailability/:unavailability`, access: 'staff', ability: 'schedule.edit', params: studioParams('unavailability'), responseKind: 'empty', status: 204 },
  myAppointments: { method: 'post', path: `${V4}/appointments`, access: 'client', params: StudioParams, body: MyAppointmentsInputSchema, response: ClientAppointmentListSchema },
  clientInit: { method: 'post', path: `${V4}/client-appointments/init`, access: 'client', params: StudioParams, response: ClientAppointmentsInitSchema },
  book: { method: 'post', path: `${V4}/booking/appointment/book`, access: 'client', params: StudioParams, body: ClientBookInputSchema, response: ClientBookResultSchema },
  cancel: { method: 'post', path: `${V4}/booking/appointment/cancel`, access: 'client', params: StudioParams, body: ClientCancelInputSchema, response: ClientAppointmentViewSchema },
});
