import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '../../lib/api-client';
import { loginPath, useSignedIn } from '../visits/client-bookings.api';
import { CourseCard } from './CoursesScreen';
import { useCourseBySlug } from './courses.api';

/**
 * `/course/{slug}` (front office; `GET course/{slug}`): one course's page, the address a studio
 * shares. Anyone may read it; a visitor is offered the sign-in (which comes back here) to book it.
 */
export function CourseScreen() {
  const { t } = useTranslation('bookings-ui');
  const { slug = '' } = useParams();
  const signedIn = useSignedIn();
  const course = useCourseBySlug(slug);
  const notFound = course.error instanceof ApiError && course.error.status === 404;
  return (
    <Stack gap="md" data-testid="course-screen">
      <Group>
        <Button component={Link} to="/courses" variant="subtle" size="xs" px={0} data-testid="course-all">
          {t('courses.allCourses')}
        </Button>
      </Group>
      {notFound ? (
        <Paper withBorder p="lg" radius="md" data-testid="course-not-found">
          <Text>{t('courses.notFound')}</Text>
        </Paper>
      ) : course.error ? (
        <Alert color="red">{t('courses.loadFailed')}</Alert>
      ) : !course.data ? (
        <Loader aria-label={t('courses.loading')} />
      ) : (
        <>
          <CourseCard course={course.data} tz={course.data.timeZone} linked={false} canAct={signedIn} />
          {!signedIn && course.data.canBook && (
            <Paper withBorder p="md" radius="md" data-testid="course-signed-out">
              <Stack gap="sm" align="flex-start">
                <Text size="sm">{t('courses.signInToBook')}</Text>
                <Button component={Link} to={loginPath(`course/${slug}`)} data-testid="course-sign-in">
                  {t('client.signIn')}
                </Button>
              </Stack>
            </Paper>
          )}
        </>
      )}
    </Stack>
  );
}
