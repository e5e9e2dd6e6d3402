import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CourseAttendanceQuery,
  type CourseSignupInput,
} from '../../../shared/contracts/api/course-signup';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../staff/staff.api';
import { CourseSignupApi } from '../../../shared/contracts/http/course-signup';
import { EnrollmentsApi } from '../../../shared/contracts/http/enrollments';

/** The back office's course pages (cloud/src/modules/bookings/README.md, "Course signup (back office)"). */
export const courseKeys = {
  all: (studio: string) => ['courses', studio] as const,
  list: (studio: string, scope: string) => ['courses', studio, 'list', scope] as const,
  preview: (studio: string, metaId: string, input: CourseSignupInput) =>
    ['courses', studio, 'preview', metaId, input] as const,
  attendance: (studio: string, metaId: string, order: CourseAttendanceQuery) =>
    ['courses', studio, 'attendance', metaId, order] as const,
};

export function useStaffCourses(scope: 'upcoming' | 'all') {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: courseKeys.list(studio, scope),
    queryFn: ({ signal }) =>
      api.call(CourseSignupApi.getCourseCourseInit, { params: { uuid: studio }, query: { scope }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** What signing the client up would do, class by class (the server rolls it back). */
export function useSignupPreview(metaId: string, input: CourseSignupInput | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: courseKeys.preview(studio, metaId, input ?? ({} as CourseSignupInput)),
    queryFn: ({ signal }) =>
      api.call(CourseSignupApi.postCourseSignupPreview, {
        params: { uuid: studio, scheduleMeta: metaId },
        body: input!, // enabled only with an input
        signal,
      }),
    enabled: input !== null,
    retry: false,
    staleTime: 0,
  });
}

export function useCourseAttendance(metaId: string, order: CourseAttendanceQuery) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: courseKeys.attendance(studio, metaId, order),
    queryFn: ({ signal }) =>
      api.call(EnrollmentsApi.getScheduleMetaEnrollmentsInit, {
        params: { uuid: studio, scheduleMeta: metaId },
        signal,
        query: { field: order.field, method: order.method },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useInvalidateCourses(): () => Promise<void> {
  const client = useQueryClient();
  const studio = useStudioUuid();
  return () => client.invalidateQueries({ queryKey: courseKeys.all(studio) });
}

export function courseCalls(api: ApiClient, studio: string) {
  return {
    confirm: (metaId: string, input: CourseSignupInput) =>
      api.call(CourseSignupApi.postCourseSignupConfirm, {
        params: { uuid: studio, scheduleMeta: metaId },
        body: input,
      }),
  };
}

const VISIT_REFUSALS = [
  'classFull',
  'alreadyBooked',
  'noPass',
  'conflict',
  'classCancelled',
  'classStarted',
  'bookingNotOpen',
  'bookingClosed',
  'notBookableOnline',
  'notAccessible',
] as const;

/** A class's refusal (`visit.*` key) in the screen's language, by the bookings module's labels. */
export const refusalKey = (key: string): string | null => {
  const short = key.replace(/^visit\./, '');
  return (VISIT_REFUSALS as readonly string[]).includes(short) ? `courses-ui:refusals.${short}` : null;
};

export const COURSE_ERROR_OPTIONS: FormErrorOptions = {
  unexpected: 'withCode',
  messagesByKey: {
    ...Object.fromEntries(VISIT_REFUSALS.map((k) => [`visit.${k}`, `courses-ui:refusals.${k}`])),
    'course.notStartable': 'courses-ui:errors.nothingToCome',
  },
};
