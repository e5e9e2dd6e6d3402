import {
  Alert,
  Anchor,
  Badge,
  Button,
  Flex,
  Group,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import {
  COURSE_SIGNUP_PAYMENTS,
  type CourseSignupInput,
  type CourseSignupPlan,
  type CourseSignupResult,
} from '../../../shared/contracts/api/course-signup';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { Loading } from './Loading';
import { price, useClientPasses, useStudio } from '../catalog/catalog.api';
import { useClientSearch } from '../schedule/event-detail/event-bookings.api';
import { VisitStatusBadge } from '../schedule/event-detail/EventAttendees';
import { visitPaymentLabel } from '../../features/schedule/visit-payment';
import { formatDay, formatTime, serviceName } from '../../features/schedule/week';
import { usePhone, useStudioUuid } from '../staff/staff.api';
import { CourseSummary } from './CoursesScreen';
import {
  COURSE_ERROR_OPTIONS,
  courseCalls,
  refusalKey,
  useInvalidateCourses,
  useSignupPreview,
  useStaffCourses,
} from './courses.api';

type Payment = CourseSignupInput['payment'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The signup as URL query (`clientId`, `payment`, `pass`): the confirm page is a link, a reload keeps it. */
function inputFromQuery(query: URLSearchParams): CourseSignupInput | null {
  const clientId = query.get('clientId') ?? '';
  const payment = (query.get('payment') ?? 'auto') as Payment;
  const pass = query.get('pass') ?? undefined;
  if (!UUID.test(clientId) || !COURSE_SIGNUP_PAYMENTS.includes(payment)) return null;
  if (payment === 'pass')
    return pass && UUID.test(pass) ? { clientId, payment, clientPricingOptionId: pass } : null;
  return { clientId, payment };
}

function queryOf(input: CourseSignupInput): string {
  const q = new URLSearchParams({ clientId: input.clientId, payment: input.payment });
  if (input.clientPricingOptionId) q.set('pass', input.clientPricingOptionId);
  return q.toString();
}

function useCourse(metaId: string) {
  const list = useStaffCourses('all');
  return { ...list, course: list.data?.items.find((c) => c.scheduleMetaId === metaId) };
}

function BackToCourses() {
  const { t } = useTranslation('courses-ui');
  return (
    <Anchor component={Link} to="/courses" size="sm" data-testid="back-to-courses">
      ← {t('list.title')}
    </Anchor>
  );
}

/**
 * `#/courses/{scheduleMetaGuid}/signup`: staff find a client and choose how the course is paid; the
 * page says what the course costs and, for the client, what covers its classes (a pass, a contract,
 * or the desk) before going on to the confirm page.
 */
export function CourseSignupScreen() {
  const { t } = useTranslation('courses-ui');
  const { scheduleMetaId = '' } = useParams();
  const [query] = useSearchParams();
  const navigate = useNavigate();
  const phone = usePhone();
  const { course, error, refetch } = useCourse(scheduleMetaId);
  const start = inputFromQuery(query);
  const [client, setClient] = useState<{ id: string; name: string } | null>(
    start ? { id: start.clientId, name: '' } : null,
  );
  const [payment, setPayment] = useState<Payment>(start?.payment ?? 'auto');
  const [passId, setPassId] = useState<string | null>(start?.clientPricingOptionId ?? null);
  const input: CourseSignupInput | null =
    client && (payment !== 'pass' || passId)
      ? payment === 'pass'
        ? { clientId: client.id, payment, clientPricingOptionId: passId! }
        : { clientId: client.id, payment }
      : null;
  const preview = useSignupPreview(scheduleMetaId, input);

  if (error)
    return (
      <Alert color="red" variant="light" title={t('list.loadFailed')}>
        <Button size="xs" variant="default" onClick={() => void refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  return (
    <Stack gap="lg" maw={900} data-testid="course-signup-screen">
      <BackToCourses />
      <Title order={1} size="h2">
        {t('signup.title')}
      </Title>
      {course ? (
        <Paper withBorder radius="md" p="md" style={{ borderLeft: `4px solid ${course.classService.color}` }}>
          <CourseSummary course={course} />
        </Paper>
      ) : (
        <Loading />
      )}

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Text fw={600}>{t('signup.client')}</Text>
          {client ? (
            <Group justify="space-between" wrap="nowrap" data-testid="signup-client">
              <Text fw={500}>
                {client.name ||
                  (preview.data ? `${preview.data.client.firstName} ${preview.data.client.lastName}` : '…')}
              </Text>
              <Button
                size="compact-sm"
                variant="subtle"
                onClick={() => {
                  setClient(null);
                  setPassId(null);
                }}
                data-testid="signup-change-client"
              >
                {t('signup.changeClient')}
              </Button>
            </Group>
          ) : (
            <ClientPicker onPick={(c) => setClient(c)} />
          )}
        </Stack>
      </Paper>

      {client && (
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Text fw={600}>{t('signup.payment')}</Text>
            <SegmentedControl
              value={payment}
              onChange={(v) => setPayment(v as Payment)}
              data={COURSE_SIGNUP_PAYMENTS.map((p) => ({ value: p, label: t(`signup.paymentModes.${p}`) }))}
              orientation={phone ? 'vertical' : 'horizontal'}
              fullWidth
              data-testid="signup-payment"
            />
            <Text size="xs" c="dimmed">
              {t(`signup.paymentHints.${payment}`)}
            </Text>
            {payment === 'pass' && <PassPicker clientId={client.id} value={passId} onChange={setPassId} />}
          </Stack>
        </Paper>
      )}

      {input && (
        <Coverage
          plan={preview.data}
          loading={preview.isFetching}
          error={preview.error}
          onContinue={() => navigate(`/courses/${scheduleMetaId}/signup/confirm?${queryOf(input)}`)}
        />
      )}
    </Stack>
  );
}

function ClientPicker({ onPick }: { onPick: (client: { id: string; name: string }) => void }) {
  const { t } = useTranslation('courses-ui');
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text, 250);
  const search = useClientSearch(q);
  const items = q.trim().length >= 2 ? (search.data?.items ?? []) : [];
  return (
    <Stack gap={6}>
      <TextInput
        label={t('signup.search')}
        placeholder={t('signup.searchPlaceholder')}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        rightSection={search.isFetching ? <Loader size="xs" /> : null}
        data-testid="signup-client-search"
      />
      {q.trim().length >= 2 && !search.isFetching && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('signup.noClients')}
        </Text>
      )}
      <Stack gap={4} data-testid="signup-client-results">
        {items.map((c) => (
          <UnstyledButton
            key={c.id}
            onClick={() => onPick({ id: c.id, name: `${c.firstName} ${c.lastName}`.trim() })}
            data-testid="signup-client-result"
          >
            <Paper withBorder radius="sm" px="sm" py={6}>
              <Text size="sm" fw={500}>
                {c.firstName} {c.lastName}
              </Text>
              <Text size="xs" c="dimmed">
                {[c.emailAddress, c.phone].filter(Boolean).join(' · ')}
              </Text>
            </Paper>
          </UnstyledButton>
        ))}
      </Stack>
    </Stack>
  );
}

function PassPicker({
  clientId,
  value,
  onChange,
}: {
  clientId: string;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const { t, i18n } = useTranslation('courses-ui');
  const studio = useStudio();
  const passes = useClientPasses(clientId);
  const usable = [...(passes.data?.own ?? []), ...(passes.data?.shared ?? [])].filter((p) => p.status !== 0);
  return (
    <Select
      label={t('signup.pass')}
      placeholder={usable.length ? t('signup.passPlaceholder') : t('signup.noPasses')}
      disabled={usable.length === 0}
      value={value}
      onChange={onChange}
      data={usable.map((p) => ({
        value: p.id,
        label: `${serviceName(p.name, i18n.language, studio.defaultLocale)} · ${
          p.entriesLeft === null ? t('signup.unlimited') : t('signup.entriesLeft', { count: p.entriesLeft })
        }`,
      }))}
      data-testid="signup-pass"
    />
  );
}

/** How the classes would be paid, summed up: "2 classes: 10 classes (pass)", "1 class: at the desk". */
function paymentGroups(
  plan: CourseSignupPlan,
  label: (v: NonNullable<CourseSignupPlan['classes'][number]['visit']>) => string,
) {
  const groups = new Map<string, number>();
  for (const c of plan.classes)
    if (c.visit) groups.set(label(c.visit), (groups.get(label(c.visit)) ?? 0) + 1);
  return [...groups.entries()];
}

function Coverage({
  plan,
  loading,
  error,
  onContinue,
}: {
  plan: CourseSignupPlan | undefined;
  loading: boolean;
  error: unknown;
  onContinue: () => void;
}) {
  const { t, i18n } = useTranslation('courses-ui');
  const studio = useStudio();
  if (error) return <ErrorAlert error={error} />;
  if (!plan) return <Loading />;
  const refused = plan.classes.filter((c) => c.refusal);
  const groups = paymentGroups(plan, (v) => visitPaymentLabel(v, t, i18n.language, 'staff') ?? '');
  return (
    <Paper withBorder radius="md" p="md" data-testid="signup-coverage">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{t('signup.coverage')}</Text>
          {loading && <Loader size="xs" />}
        </Group>
        {plan.prices.length > 0 && (
          <Stack gap={2} data-testid="signup-prices">
            {plan.prices.map((p) => (
              <Text key={p.pricingOptionId} size="sm">
                {t('signup.price', {
                  name: serviceName(p.name, i18n.language, studio.defaultLocale),
                  price: price(p.price, p.currency, i18n.language),
                })}
              </Text>
            ))}
          </Stack>
        )}
        <Stack gap={4} data-testid="signup-coverage-lines">
          {groups.map(([label, count]) => (
            <Group key={label} gap="xs" wrap="nowrap">
              <Badge variant="light" color={label === t('bookings-ui:staff.paysAtDesk') ? 'yellow' : 'teal'}>
                {t('signup.classes', { count })}
              </Badge>
              <Text size="sm">{label}</Text>
            </Group>
          ))}
        </Stack>
        {refused.length > 0 && (
          <Alert color="red" variant="light" data-testid="signup-refusals" title={t('signup.cannotBook')}>
            <Stack gap={2}>
              {refused.map((c) => (
                <Text key={c.scheduleEventId} size="sm">
                  {formatDay(localDateOf(new Date(c.startsAt), studio.timeZone), i18n.language, 'long')}{' '}
                  {formatTime(c.startsAt, i18n.language, studio.timeZone)}:{' '}
                  {refusalKey(c.refusal!.key) ? t(refusalKey(c.refusal!.key)!) : c.refusal!.message}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={onContinue} disabled={!plan.canConfirm || loading} data-testid="signup-continue">
            {t('signup.continue')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function ErrorAlert({ error }: { error: unknown }) {
  const { t } = useTranslation('courses-ui');
  const errors = toFormErrors(error, t, COURSE_ERROR_OPTIONS);
  return (
    <Alert color="red" variant="light" data-testid="signup-error">
      {[...errors.form, ...Object.values(errors.fields)].join(' ') || t('failed')}
    </Alert>
  );
}

/**
 * `#/courses/{scheduleMetaGuid}/signup/confirm?clientId&payment&pass`: every class the client will be
 * booked into, with what pays each; confirming books them all in one go (all or nothing).
 */
export function CourseConfirmScreen() {
  const { t, i18n } = useTranslation('courses-ui');
  const { scheduleMetaId = '' } = useParams();
  const [query] = useSearchParams();
  const input = useMemo(() => inputFromQuery(query), [query]);
  const preview = useSignupPreview(scheduleMetaId, input);
  const api = useApiClient();
  const studioUuid = useStudioUuid();
  const studio = useStudio();
  const phone = usePhone();
  const invalidate = useInvalidateCourses();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<CourseSignupResult | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const back = `/courses/${scheduleMetaId}/signup${input ? `?${queryOf(input)}` : ''}`;

  const confirm = async () => {
    if (!input) return;
    setBusy(true);
    setFailure(null);
    try {
      setDone(await courseCalls(api, studioUuid).confirm(scheduleMetaId, input));
      await invalidate();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  if (!input)
    return (
      <Stack gap="lg" maw={900}>
        <BackToCourses />
        <Alert color="red" variant="light">
          {t('confirm.badLink')}
        </Alert>
      </Stack>
    );
  const plan = preview.data;
  const name = plan ? `${plan.client.firstName} ${plan.client.lastName}`.trim() : '';
  return (
    <Stack gap="lg" maw={900} data-testid="course-confirm-screen">
      <BackToCourses />
      <Title order={1} size="h2">
        {t('confirm.title')}
      </Title>
      {preview.error && !done ? (
        <ErrorAlert error={preview.error} />
      ) : !plan ? (
        <Loading />
      ) : (
        <>
          <Paper
            withBorder
            radius="md"
            p="md"
            style={{ borderLeft: `4px solid ${plan.course.classService.color}` }}
          >
            <Stack gap="xs">
              <CourseSummary course={plan.course} />
              <Text size="sm" data-testid="confirm-client">
                {t('confirm.client', { name })}
              </Text>
            </Stack>
          </Paper>
          {done ? (
            <Alert color="teal" variant="light" data-testid="confirm-done" title={t('confirm.doneTitle')}>
              <Stack gap="xs">
                <Text size="sm">
                  {done.outcome === 'unconfirmed'
                    ? t('confirm.doneUnpaid', { name, count: done.visits.length })
                    : t('confirm.done', { name, count: done.visits.length })}
                </Text>
                <Group gap="xs">
                  <Button
                    component={Link}
                    to={`/courses/${scheduleMetaId}/attendance`}
                    size="xs"
                    data-testid="confirm-to-attendance"
                  >
                    {t('list.attendance')}
                  </Button>
                  <Button
                    component={Link}
                    to={`/courses/${scheduleMetaId}/signup`}
                    size="xs"
                    variant="default"
                  >
                    {t('confirm.another')}
                  </Button>
                </Group>
              </Stack>
            </Alert>
          ) : (
            <>
              <Text size="sm" c="dimmed">
                {t('confirm.intro', { count: plan.classes.length })}
              </Text>
              <Stack gap={6} data-testid="confirm-classes">
                {plan.classes.map((c, i) => (
                  <Paper key={c.scheduleEventId} withBorder radius="sm" p="sm" data-testid="confirm-class">
                    <Group justify="space-between" wrap={phone ? 'wrap' : 'nowrap'} gap="xs">
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" fw={600}>
                          {t('confirm.classNo', { n: i + 1 })} ·{' '}
                          {formatDay(
                            localDateOf(new Date(c.startsAt), studio.timeZone),
                            i18n.language,
                            'long',
                          )}
                        </Text>
                        <Text size="sm">
                          {formatTime(c.startsAt, i18n.language, studio.timeZone)}–
                          {formatTime(c.endsAt, i18n.language, studio.timeZone)} ·{' '}
                          {t('confirm.taken', { taken: c.taken, capacity: c.capacity })}
                        </Text>
                        <Text size="xs" c={c.refusal ? 'red' : 'dimmed'} data-testid="confirm-class-payment">
                          {c.visit
                            ? visitPaymentLabel(c.visit, t, i18n.language, 'staff')
                            : refusalKey(c.refusal!.key)
                              ? t(refusalKey(c.refusal!.key)!)
                              : c.refusal!.message}
                        </Text>
                      </div>
                      {c.visit ? (
                        <VisitStatusBadge status={c.visit.status} />
                      ) : (
                        <Badge color="red" variant="light">
                          {t('confirm.refused')}
                        </Badge>
                      )}
                    </Group>
                  </Paper>
                ))}
              </Stack>
              {failure !== null && <ErrorAlert error={failure} />}
              <Flex direction={phone ? 'column-reverse' : 'row'} justify="space-between" gap="xs">
                <Button component={Link} to={back} variant="default" data-testid="confirm-back">
                  {t('confirm.back')}
                </Button>
                <Button
                  onClick={() => void confirm()}
                  loading={busy}
                  disabled={!plan.canConfirm}
                  data-testid="confirm-submit"
                >
                  {t('confirm.submit', { count: plan.classes.length })}
                </Button>
              </Flex>
            </>
          )}
        </>
      )}
    </Stack>
  );
}
