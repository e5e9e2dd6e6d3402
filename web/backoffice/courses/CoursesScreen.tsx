import {
  Alert,
  Badge,
  Button,
  Flex,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { StaffCourseView } from '../../../shared/contracts/api/course-signup';
import { Loading } from './Loading';
import { useStudio } from '../catalog/catalog.api';
import { serviceName } from '../../features/schedule/week';
import { useCan, usePhone } from '../staff/staff.api';
import { courseDates, courseSchedule } from './course-labels';
import { useStaffCourses } from './courses.api';
import { ListEmpty } from '../list-frame';

type Scope = 'upcoming' | 'all';

/** `#/courses`: the studio's courses (course metas) with classes left, places and who is on them. */
export function CoursesScreen() {
  const { t } = useTranslation('courses-ui');
  const phone = usePhone();
  const [scope, setScope] = useState<Scope>('upcoming');
  const list = useStaffCourses(scope);
  const items = list.data?.items ?? [];
  return (
    <Stack gap="lg" maw={1100} data-testid="courses-screen">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('list.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('list.subtitle')}
        </Text>
      </Stack>
      <SegmentedControl
        value={scope}
        onChange={(v) => setScope(v as Scope)}
        data={[
          { value: 'upcoming', label: t('list.upcoming') },
          { value: 'all', label: t('list.all') },
        ]}
        fullWidth={phone}
        w={phone ? '100%' : 'fit-content'}
        data-testid="courses-scope"
      />
      {list.error ? (
        <Alert color="red" variant="light" title={t('list.loadFailed')}>
          <Button size="xs" variant="default" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : list.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <ListEmpty
          text={scope === 'upcoming' ? t('list.emptyUpcoming') : t('list.empty')}
          testId="courses-empty"
        />
      ) : (
        <Stack gap="sm" data-testid="courses-list">
          {items.map((course) => (
            <CourseCard key={course.scheduleMetaId} course={course} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** The course's name, dates, weekly time, place and teachers: the head of every course page. */
export function CourseSummary({ course }: { course: StaffCourseView }) {
  const { t, i18n } = useTranslation('courses-ui');
  const studio = useStudio();
  const teachers = course.instructors.map((p) => `${p.firstName} ${p.lastName}`.trim()).join(', ');
  return (
    <div style={{ minWidth: 0 }}>
      <Text fw={700} size="lg" data-testid="course-name">
        {serviceName(course.classService.name, i18n.language, studio.defaultLocale)}
      </Text>
      <Text size="sm">
        {courseDates(course, i18n.language)} · {courseSchedule(course, i18n.language, t('list.everyDay'))}
      </Text>
      <Text size="sm" c="dimmed">
        {course.location.name}
        {teachers ? ` · ${t('list.teachers', { names: teachers })}` : ''}
      </Text>
    </div>
  );
}

function CourseCard({ course }: { course: StaffCourseView }) {
  const { t } = useTranslation('courses-ui');
  const phone = usePhone();
  const canBook = useCan()('schedule.book');
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      style={{ borderLeft: `4px solid ${course.classService.color}` }}
      data-testid="course-card"
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <CourseSummary course={course} />
          <Group gap={6} wrap="wrap">
            {course.started && course.sessions > 0 && (
              <Badge color="orange" variant="light">
                {t('list.started')}
              </Badge>
            )}
            {course.sessions === 0 && (
              <Badge color="gray" variant="light">
                {t('list.ended')}
              </Badge>
            )}
            <Badge variant="light" data-testid="course-sessions">
              {t('list.sessions', { count: course.sessions, total: course.classesTotal })}
            </Badge>
            {course.sessions > 0 && (
              <Badge
                variant="outline"
                color={course.placesLeft > 0 ? 'teal' : 'red'}
                data-testid="course-places"
              >
                {t('list.placesLeft', { count: course.placesLeft })}
              </Badge>
            )}
            <Badge variant="outline" color="grape" data-testid="course-enrolled">
              {t('list.enrolled', { count: course.enrolled })}
            </Badge>
          </Group>
        </Group>
        <Flex gap="xs" justify="flex-end" direction={phone ? 'column' : 'row'}>
          <Button
            component={Link}
            to={`/courses/${course.scheduleMetaId}/attendance`}
            variant="default"
            size="sm"
            data-testid="course-attendance-link"
          >
            {t('list.attendance')}
          </Button>
          {canBook && course.sessions > 0 && (
            <Button
              component={Link}
              to={`/courses/${course.scheduleMetaId}/signup`}
              size="sm"
              data-testid="course-signup-link"
            >
              {t('list.signUp')}
            </Button>
          )}
        </Flex>
      </Stack>
    </Paper>
  );
}
