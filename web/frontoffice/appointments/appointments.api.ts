import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AppointmentsApi } from '../../../shared/contracts/http/appointments';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';
import { useSignedIn } from '../visits/client-bookings.api';

/** The client's appointment calls (front office). */
export const clientAppointmentKeys = {
  all: (studio: string) => ['client-appointments', studio] as const,
  init: (studio: string) => ['client-appointments', studio, 'init'] as const,
  slots: (studio: string, service: string, member: string, day: string) =>
    ['client-appointments', studio, 'slots', service, member, day] as const,
  mine: (studio: string) => ['client-appointments', studio, 'mine'] as const,
};

export function useClientAppointmentsInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: clientAppointmentKeys.init(studio),
    queryFn: ({ signal }) => api.call(AppointmentsApi.clientInit, { params: { uuid: studio }, signal }),
    enabled: signedIn,
    retry: false,
  });
}

export function useFreeTimes(serviceId: string | null, memberId: string | null, day: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: clientAppointmentKeys.slots(studio, serviceId ?? '', memberId ?? 'anyone', day),
    queryFn: ({ signal }) =>
      api.call(AppointmentsApi.find, {
        params: { uuid: studio },
        body: { serviceId: serviceId!, memberId, from: day, to: day },
        signal,
      }),
    enabled: Boolean(serviceId) && signedIn,
  });
}

export function useMyAppointments() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: clientAppointmentKeys.mine(studio),
    queryFn: ({ signal }) =>
      api.call(AppointmentsApi.myAppointments, {
        params: { uuid: studio },
        body: { when: 'upcoming' },
        signal,
      }),
    enabled: signedIn,
  });
}

export function useClientAppointmentActions() {
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: clientAppointmentKeys.all(studio) });
  return {
    book: async (body: {
      serviceId: string;
      memberId: string | null;
      startsAt: string;
      payment: 'pass' | 'wallet' | 'online';
      returnPath: string;
    }) => {
      const out = await api.call(AppointmentsApi.book, { params: { uuid: studio }, body });
      await refresh();
      return out;
    },
    cancel: async (id: string) => {
      const out = await api.call(AppointmentsApi.cancel, {
        params: { uuid: studio },
        body: { clientAppointmentId: id },
      });
      await refresh();
      return out;
    },
  };
}
