import {
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import {
  COURSE_ATTENDANCE_FIELDS,
  type CourseAttendanceField,
  type CourseAttendanceQuery,
} from '../../../shared/contracts/api/course-signup';
import type { CourseEnrollments } from '../../../shared/contracts/api/enrollments';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { Loading } from './Loading';
import { useStudio } from '../catalog/catalog.api';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { useCan, usePhone } from '../staff/staff.api';
import { useCourseAttendance } from './courses.api';
import { ListEmpty } from '../list-frame';

const COUNTS = ['booked', 'present', 'absent', 'unpaid', 'waiting', 'cancelled'] as const;
const COUNT_COLOR: Record<(typeof COUNTS)[number], string> = {
  booked: 'blue',
  present: 'teal',
  absent: 'orange',
  unpaid: 'yellow',
  waiting: 'grape',
  cancelled: 'gray',
};
/** One dot per visit in the grid, coloured by status (cancelled ones hollow); the status's name in the tooltip. */
const STATUS_COLOR: Record<number, string> = { 0: 'blue', 1: 'teal', 2: 'orange', 8: 'grape', 9: 'yellow' };

/** The list's order from the URL (spec §2: `field`, default firstName; `method`, default ASC). */
function orderFrom(query: URLSearchParams): CourseAttendanceQuery {
  const field = query.get('field') as CourseAttendanceField | null;
  const method = (query.get('method') ?? '').toUpperCase();
  return {
    field: field && COURSE_ATTENDANCE_FIELDS.includes(field) ? field : 'firstName',
    method: method === 'DESC' ? 'DESC' : 'ASC',
  };
}

/**
 * `#/courses/{scheduleMetaGuid}/attendance?field&method`: everyone on the course with their visits by
 * status and, on wide screens, a grid of the classes; sorted by the URL's field and method.
 */
export function CourseAttendanceScreen() {
  const { t, i18n } = useTranslation('courses-ui');
  const { scheduleMetaId = '' } = useParams();
  const [query, setQuery] = useSearchParams();
  const order = orderFrom(query);
  const list = useCourseAttendance(scheduleMetaId, order);
  const studio = useStudio();
  const phone = usePhone();
  const canBook = useCan()('schedule.book');
  const sortBy = (next: CourseAttendanceQuery) =>
    setQuery({ field: next.field, method: next.method }, { replace: true });
  const data = list.data;

  return (
    <Stack gap="lg" maw={1200} data-testid="course-attendance-screen">
      <Anchor component={Link} to="/courses" size="sm">
        ← {t('list.title')}
      </Anchor>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('attendance.title')}
          </Title>
          {data && (
            <Text size="sm" c="dimmed" data-testid="attendance-course">
              {serviceName(data.classService.name, i18n.language, studio.defaultLocale)} ·{' '}
              {t('attendance.classes', { count: data.events.length })}
            </Text>
          )}
        </Stack>
        {canBook && (
          <Button component={Link} to={`/courses/${scheduleMetaId}/signup`} fullWidth={phone}>
            {t('list.signUp')}
          </Button>
        )}
      </Group>
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Select
          label={t('attendance.sortBy')}
          value={order.field}
          onChange={(v) => v && sortBy({ ...order, field: v as CourseAttendanceField })}
          data={COURSE_ATTENDANCE_FIELDS.map((f) => ({ value: f, label: t(`attendance.fields.${f}`) }))}
          allowDeselect={false}
          w={phone ? '100%' : 220}
          data-testid="attendance-field"
        />
        <SegmentedControl
          value={order.method}
          onChange={(v) => sortBy({ ...order, method: v as 'ASC' | 'DESC' })}
          data={[
            { value: 'ASC', label: t('attendance.asc') },
            { value: 'DESC', label: t('attendance.desc') },
          ]}
          fullWidth={phone}
          w={phone ? '100%' : undefined}
          data-testid="attendance-method"
        />
      </Group>
      {list.error ? (
        <Alert color="red" variant="light" title={t('attendance.loadFailed')}>
          <Button size="xs" variant="default" onClick={() => void list.refetch()}>
            {t('retry')}
          </Button>
        </Alert>
      ) : !data ? (
        <Loading />
      ) : data.clients.length === 0 ? (
        <ListEmpty text={t('attendance.empty')} testId="attendance-empty" />
      ) : phone ? (
        <Stack gap="xs" data-testid="attendance-list">
          {data.clients.map((c) => (
            <Paper key={c.id} withBorder radius="md" p="sm" data-testid="attendance-row">
              <Text fw={600} data-testid="attendance-name">
                {c.firstName} {c.lastName}
              </Text>
              {c.email && (
                <Text size="xs" c="dimmed">
                  {c.email}
                </Text>
              )}
              <Group gap={4} mt={6} wrap="wrap">
                {COUNTS.filter((k) => c[k] > 0).map((k) => (
                  <Badge key={k} size="sm" variant="light" color={COUNT_COLOR[k]}>
                    {t(`attendance.fields.${k}`)}: {c[k]}
                  </Badge>
                ))}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <AttendanceTable data={data} order={order} onSort={sortBy} />
      )}
    </Stack>
  );
}

function AttendanceTable({
  data,
  order,
  onSort,
}: {
  data: CourseEnrollments;
  order: CourseAttendanceQuery;
  onSort: (order: CourseAttendanceQuery) => void;
}) {
  const { t, i18n } = useTranslation('courses-ui');
  const { t: tEnums } = useTranslation('enums');
  const studio = useStudio();
  const header = (field: CourseAttendanceField) => {
    const active = order.field === field;
    return (
      <UnstyledButton
        onClick={() => onSort({ field, method: active && order.method === 'ASC' ? 'DESC' : 'ASC' })}
        data-testid={`attendance-sort-${field}`}
        aria-sort={active ? (order.method === 'ASC' ? 'ascending' : 'descending') : undefined}
      >
        <Text size="sm" fw={active ? 700 : 500}>
          {t(`attendance.fields.${field}`)}
          {active ? (order.method === 'ASC' ? ' ▲' : ' ▼') : ''}
        </Text>
      </UnstyledButton>
    );
  };
  return (
    <Table.ScrollContainer minWidth={720 + data.events.length * 56}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="attendance-list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{header('firstName')}</Table.Th>
            <Table.Th>{header('lastName')}</Table.Th>
            <Table.Th>{header('email')}</Table.Th>
            {COUNTS.map((k) => (
              <Table.Th key={k} ta="center">
                {header(k)}
              </Table.Th>
            ))}
            {data.events.map((e) => (
              <Table.Th key={e.id} ta="center">
                <Tooltip
                  label={`${formatTime(e.startsAt, i18n.language, studio.timeZone)} · ${e.taken}/${e.capacity}`}
                >
                  <Text
                    size="xs"
                    c={e.status === 'scheduled' ? undefined : 'dimmed'}
                    td={e.status === 'scheduled' ? undefined : 'line-through'}
                  >
                    {formatDay(localDateOf(new Date(e.startsAt), studio.timeZone), i18n.language)}
                  </Text>
                </Tooltip>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.clients.map((c) => {
            const latest = new Map(c.visits.map((v) => [v.scheduleEventId, v.status]));
            return (
              <Table.Tr key={c.id} data-testid="attendance-row">
                <Table.Td data-testid="attendance-name">{c.firstName}</Table.Td>
                <Table.Td>{c.lastName}</Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {c.email ?? '—'}
                  </Text>
                </Table.Td>
                {COUNTS.map((k) => (
                  <Table.Td key={k} ta="center">
                    {c[k] > 0 ? (
                      <Badge size="sm" variant="light" color={COUNT_COLOR[k]}>
                        {c[k]}
                      </Badge>
                    ) : (
                      <Text size="sm" c="dimmed">
                        0
                      </Text>
                    )}
                  </Table.Td>
                ))}
                {data.events.map((e) => {
                  const status = latest.get(e.id);
                  return (
                    <Table.Td key={e.id} ta="center">
                      {status === undefined ? (
                        <Text size="sm" c="dimmed">
                          ·
                        </Text>
                      ) : (
                        <Tooltip label={tEnums(`clientVisitStatus.${status}`)}>
                          <Box
                            component="span"
                            role="img"
                            aria-label={tEnums(`clientVisitStatus.${status}`)}
                            data-testid="attendance-visit"
                            data-status={status}
                            style={{
                              display: 'inline-block',
                              width: 12,
                              height: 12,
                              borderRadius: '50%',
                              background: STATUS_COLOR[status]
                                ? `var(--mantine-color-${STATUS_COLOR[status]}-6)`
                                : 'transparent',
                              border: STATUS_COLOR[status]
                                ? undefined
                                : '2px solid var(--mantine-color-gray-5)',
                            }}
                          />
                        </Tooltip>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
