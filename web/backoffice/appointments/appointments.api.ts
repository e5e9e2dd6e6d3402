import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TZDate } from '@date-fns/tz';
import type {
  AppointmentServiceInput,
  MemberSchedule,
  StaffEnrollInput,
} from '../../../shared/contracts/api/appointments';
import { AppointmentsApi } from '../../../shared/contracts/http/appointments';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { instantOfLocalTime } from '../../../shared/domain/schedule/occurrences';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** The back office's appointment calls (`shared/contracts/http/appointments.ts`) and their query keys. */
export const appointmentKeys = {
  all: (studio: string) => ['appointments', studio] as const,
  init: (studio: string) => ['appointments', studio, 'init'] as const,
  calendar: (studio: string, from: string, to: string) =>
    ['appointments', studio, 'calendar', from, to] as const,
  schedule: (studio: string, member: string) => ['appointments', studio, 'schedule', member] as const,
  unavailability: (studio: string, member: string) =>
    ['appointments', studio, 'unavailability', member] as const,
};

export function useStudio() {
  return useBackoffice().studio;
}

export function useAppointmentInit() {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: appointmentKeys.init(studio),
    queryFn: ({ signal }) => api.call(AppointmentsApi.init, { params: { uuid: studio }, signal }),
  });
}

export function useStaffCalendar(from: string, to: string) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: appointmentKeys.calendar(studio, from, to),
    queryFn: ({ signal }) =>
      api.call(AppointmentsApi.eventInit, { params: { uuid: studio }, query: { from, to }, signal }),
  });
}

/** Every appointment mutation refreshes the module's queries. */
export function useAppointmentActions() {
  const api = useApiClient();
  const studio = useStudio().uuid;
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: appointmentKeys.all(studio) });
  const params = { uuid: studio };
  const run = async <T>(p: Promise<T>) => {
    const out = await p;
    await refresh();
    return out;
  };
  return {
    enroll: (body: StaffEnrollInput) => run(api.call(AppointmentsApi.enroll, { params, body })),
    confirm: (id: string) =>
      run(api.call(AppointmentsApi.confirm, { params, body: { clientAppointmentId: id } })),
    reject: (id: string) =>
      run(api.call(AppointmentsApi.reject, { params, body: { clientAppointmentId: id } })),
    callOff: (id: string) =>
      run(api.call(AppointmentsApi.callOff, { params, body: { clientAppointmentId: id } })),
    noShow: (id: string, chargeFee: boolean) =>
      run(api.call(AppointmentsApi.noShow, { params, body: { clientAppointmentId: id, chargeFee } })),
    checkIn: (id: string) =>
      run(api.call(AppointmentsApi.checkIn, { params, body: { clientAppointmentId: id } })),
    move: (id: string, startsAt: string, memberId: string) =>
      run(api.call(AppointmentsApi.move, { params, body: { clientAppointmentId: id, startsAt, memberId } })),
    saveService: (id: string | null, body: AppointmentServiceInput) =>
      run(
        id
          ? api.call(AppointmentsApi.serviceUpdate, { params: { ...params, appointmentService: id }, body })
          : api.call(AppointmentsApi.serviceCreate, { params, body }),
      ),
    archiveService: (id: string) =>
      run(api.call(AppointmentsApi.serviceArchive, { params: { ...params, appointmentService: id } })),
    saveSchedule: (member: string, body: Pick<MemberSchedule, 'weekly' | 'exceptions'>) =>
      run(api.call(AppointmentsApi.scheduleSave, { params: { ...params, user: member }, body })),
    addUnavailability: (member: string, body: { startsAt: string; endsAt: string; reason?: string }) =>
      run(api.call(AppointmentsApi.unavailabilityCreate, { params: { ...params, user: member }, body })),
    removeUnavailability: (id: string) =>
      run(api.call(AppointmentsApi.unavailabilityDelete, { params: { ...params, unavailability: id } })),
  };
}

export function useMemberSchedule(member: string | null) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: appointmentKeys.schedule(studio, member ?? ''),
    queryFn: ({ signal }) =>
      api.call(AppointmentsApi.scheduleInit, { params: { uuid: studio, user: member! }, signal }),
    enabled: Boolean(member),
  });
}

export function useMemberUnavailability(member: string | null) {
  const api = useApiClient();
  const studio = useStudio().uuid;
  return useQuery({
    queryKey: appointmentKeys.unavailability(studio, member ?? ''),
    queryFn: ({ signal }) =>
      api.call(AppointmentsApi.unavailabilityInit, { params: { uuid: studio, user: member! }, signal }),
    enabled: Boolean(member),
  });
}

/**
 * The calendar shows the studio's wall clock whatever the browser's zone: an instant becomes a Date
 * whose local fields are the studio's, and back.
 */
export function toWall(iso: string, timeZone: string): Date {
  const z = new TZDate(new Date(iso).getTime(), timeZone);
  return new Date(z.getFullYear(), z.getMonth(), z.getDate(), z.getHours(), z.getMinutes());
}

export function fromWall(wall: Date, timeZone: string): string {
  const date = `${wall.getFullYear()}-${String(wall.getMonth() + 1).padStart(2, '0')}-${String(wall.getDate()).padStart(2, '0')}`;
  return instantOfLocalTime(date, wall.getHours() * 60 + wall.getMinutes(), timeZone).toISOString();
}

export function wallDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export const studioToday = (timeZone: string) => localDateOf(new Date(), timeZone);
