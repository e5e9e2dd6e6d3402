import { useQuery } from '@tanstack/react-query';
import { type CoursesInput } from '../../../shared/contracts/api/enrollments';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useStudioUuid } from '../studio';
import { CLIENT_BOOKING_ERROR_OPTIONS, clientBookingKeys, useSignedIn } from '../visits/client-bookings.api';
import { EnrollmentsApi } from '../../../shared/contracts/http/enrollments';

/**
 * The signed-in client's course calls (front office `courses`, `booking/course/book|cancel`,
 * cloud/src/modules/bookings/README.md "Courses"). Keys live under the client's bookings, so a
 * course booking refreshes the timetable layer and "my visits" too.
 */
export function useCourses(scope: CoursesInput['scope']) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...clientBookingKeys.all(studio), 'courses', scope],
    queryFn: ({ signal }) =>
      api.call(EnrollmentsApi.postCourses, { params: { uuid: studio }, body: { scope }, signal }),
    enabled: signedIn,
    // Staff members browsing the front office are not clients: no retries on their 403.
    retry: false,
  });
}

export function courseCalls(api: ReturnType<typeof useApiClient>, studio: string) {
  return {
    book: (scheduleMetaId: string) =>
      api.call(EnrollmentsApi.bookCourse, { params: { uuid: studio }, body: { scheduleMetaId } }),
    cancel: (scheduleMetaId: string) =>
      api.call(EnrollmentsApi.cancelCourse, { params: { uuid: studio }, body: { scheduleMetaId } }),
  };
}

export const COURSE_ERROR_OPTIONS: FormErrorOptions = {
  ...CLIENT_BOOKING_ERROR_OPTIONS,
  messagesByKey: {
    ...CLIENT_BOOKING_ERROR_OPTIONS.messagesByKey,
    'course.notStartable': 'bookings-ui:courses.errors.notStartable',
    'visit.notCancellable': 'bookings-ui:courses.errors.notCancellable',
  },
};

/** A course's page by its slug (`GET course/{slug}`, public: a signed-in client also sees their standing). */
export function useCourseBySlug(slug: string) {
  const api = useApiClient();
  const studio = useStudioUuid();
  const signedIn = useSignedIn();
  return useQuery({
    queryKey: [...clientBookingKeys.all(studio), 'course', slug, signedIn],
    queryFn: ({ signal }) =>
      api.call(EnrollmentsApi.getCourseBySlug, { params: { uuid: studio, slug }, signal }),
    retry: false,
  });
}
