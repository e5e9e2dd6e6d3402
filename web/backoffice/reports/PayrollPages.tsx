import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import {
  PAY_RATE_KINDS,
  ReportQuerySchema,
  type PayRate,
  type PayRateKind,
} from '../../../shared/contracts/api/reports';
import { ApiError } from '../../lib/api-client';
import { failureText, translateFieldMessage } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { money } from '../invoices/invoices.api';
import { useCellFormat, useExportHref, usePayRates, useReportData, useSetPayRates } from './reports.api';

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
function monthOf(offset: number): { from: string; to: string } {
  const now = new Date();
  return {
    from: ymd(new Date(now.getFullYear(), now.getMonth() + offset, 1)),
    to: ymd(new Date(now.getFullYear(), now.getMonth() + offset + 1, 0)),
  };
}
/** An amount typed as "80" or "80,50" in minor units (basis points for a percentage); NaN if not a number. */
const toMinor = (text: string) => Math.round(Number(text.replace(',', '.').replace(/\s/g, '')) * 100);

/** Words and dates to the left, numbers and money to the right. */
const alignOf = (kind: string) =>
  kind === 'text' || kind === 'label' || kind === 'datetime' ? 'left' : 'right';

/** A rate in words: "80,00 zł", "15,00 zł (min. 50,00 zł)", "20 %". */
function useDescribeRate(): (rate: Pick<PayRate, 'kind' | 'amount' | 'minimum'>) => string {
  const { i18n } = useTranslation();
  const { studio } = useBackoffice();
  return (rate) =>
    rate.kind === 'revenuePercent'
      ? `${new Intl.NumberFormat(i18n.language).format(rate.amount / 100)} %`
      : rate.kind === 'perAttendee'
        ? `${money(rate.amount, studio.currency, i18n.language)} (min. ${money(rate.minimum, studio.currency, i18n.language)})`
        : money(rate.amount, studio.currency, i18n.language);
}

/**
 * One instructor's payroll for a period (a payroll page of §2): the rates that apply to them, and
 * every class they taught — substitutions included, the timetable's instructor is not paid for a
 * class someone else taught — with the rule that paid it, and what to pay in all.
 */
export function InstructorPayrollScreen() {
  const { t, i18n } = useTranslation('reports');
  const { instructor = '' } = useParams();
  const { studio } = useBackoffice();
  const rates = usePayRates();
  const describe = useDescribeRate();
  const [range, setRange] = useState(() => monthOf(0));
  const query = useMemo(() => ({ ...range, instructor }), [range, instructor]);
  const valid = ReportQuerySchema.safeParse(query).success;
  const person = rates.data?.instructors.find((i) => i.id === instructor);
  const data = useReportData('payroll', query, valid && Boolean(person));
  const cell = useCellFormat(studio.currency);
  const href = useExportHref();

  if (rates.isPending) return <Loader size="sm" />;
  if (!person)
    return (
      <Alert color="red" variant="light" data-testid="instructor-payroll-missing">
        {t('payroll.noInstructor')}
      </Alert>
    );
  const own = rates.data!.items.filter((r) => r.instructorId === instructor);
  const columns = (data.data?.columns ?? []).filter((c) => c.key !== 'instructor');
  const rows = data.data?.rows ?? [];
  const substitutions = rows.filter((r) => r.substitute === 'reports:substitute.yes').length;
  return (
    <Stack gap="md" maw={1100} data-testid="instructor-payroll">
      <Anchor component={Link} to="/reports/pay-rates" size="sm">
        ← {t('payroll.title')}
      </Anchor>
      <Title order={1} size="h2">
        {t('payroll.instructorTitle', { name: person.name })}
      </Title>
      <Card withBorder radius="md" padding="md">
        <Stack gap="xs">
          <Text fw={600}>{t('payroll.ratesOf')}</Text>
          {own.length === 0 ? (
            <Text c="dimmed" size="sm" data-testid="instructor-no-rate">
              {t('payroll.noRate')}
            </Text>
          ) : (
            own.map((r) => (
              <Group key={r.classServiceId ?? ''} gap="xs" wrap="nowrap">
                <Text size="sm" miw={140}>
                  {r.classServiceName ?? t('payroll.allClasses')}
                </Text>
                <Badge variant="light">{t(`payRule.${r.kind}`)}</Badge>
                <Text size="sm">{describe(r)}</Text>
              </Group>
            ))
          )}
        </Stack>
      </Card>
      <Group align="end" wrap="wrap" gap="sm">
        <TextInput
          type="date"
          label={t('filter.from')}
          value={range.from}
          onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label={t('filter.to')}
          value={range.to}
          onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
        />
        <Group gap={4}>
          <Button variant="light" size="xs" onClick={() => setRange(monthOf(0))}>
            {t('filter.thisMonth')}
          </Button>
          <Button
            variant="light"
            size="xs"
            onClick={() => setRange(monthOf(-1))}
            data-testid="instructor-last-month"
          >
            {t('filter.lastMonth')}
          </Button>
        </Group>
        <Button
          component="a"
          href={href('payroll', query, 'csv')}
          variant="default"
          size="xs"
          disabled={!valid}
        >
          {t('export.csv')}
        </Button>
      </Group>
      {data.isFetching && !data.data && <Loader size="sm" />}
      {data.data && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="instructor-payroll-summary">
            {[
              [t('column.classes'), String(data.data.rowCount)],
              [t('column.substitutions'), String(substitutions)],
              [t('column.attendees'), String(data.data.totals.attendees ?? 0)],
              [t('column.pay'), money(data.data.totals.pay ?? 0, studio.currency, i18n.language)],
            ].map(([label, value]) => (
              <Card key={label} withBorder radius="md" padding="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {label}
                </Text>
                <Text fw={700} size="lg">
                  {value}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
          <Card withBorder radius="md" padding={0}>
            {rows.length === 0 ? (
              <Text c="dimmed" p="md">
                {t('payroll.noClasses')}
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={640}>
                <Table striped verticalSpacing="xs" data-testid="instructor-payroll-table">
                  <Table.Thead>
                    <Table.Tr>
                      {columns.map((c) => (
                        <Table.Th key={c.key} ta={alignOf(c.kind)}>
                          {t(`column.${c.key}`)}
                        </Table.Th>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((row, i) => (
                      <Table.Tr key={i}>
                        {columns.map((c) => (
                          <Table.Td
                            key={c.key}
                            ta={alignOf(c.kind)}
                            style={c.kind === 'datetime' ? { whiteSpace: 'nowrap' } : undefined}
                          >
                            {c.key === 'substitute' ? (
                              row.substitute === 'reports:substitute.yes' ? (
                                <Badge color="grape" variant="light">
                                  {t('substitute.yes')}
                                </Badge>
                              ) : (
                                ''
                              )
                            ) : (
                              cell(c, row[c.key] ?? null)
                            )}
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            {data.data.truncated && (
              <Text size="xs" c="dimmed" p="xs">
                {t('truncated', { shown: rows.length, count: data.data.rowCount })}
              </Text>
            )}
          </Card>
        </>
      )}
    </Stack>
  );
}

type Draft = { kind: PayRateKind; amount: string; minimum: string };

/**
 * Pay rates in bulk (manager-tools/payroll-values, a payroll page of §2): every instructor in one
 * table for one class service (or the default for all classes); the rows given an amount are saved
 * together, in one transaction, and a row the server refuses is marked.
 */
export function BulkPayRatesScreen() {
  const { t } = useTranslation('reports');
  const { member } = useBackoffice();
  const rates = usePayRates();
  const save = useSetPayRates();
  const describe = useDescribeRate();
  const [service, setService] = useState('');
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const canEdit = member.abilities.includes('staff.edit');

  if (rates.isPending) return <Loader size="sm" />;
  if (!rates.data || !canEdit)
    return (
      <Alert color="red" variant="light">
        {t('payroll.cannotEdit')}
      </Alert>
    );
  const current = (instructorId: string) =>
    rates.data.items.find((r) => r.instructorId === instructorId && (r.classServiceId ?? '') === service);
  const draftOf = (id: string): Draft => drafts[id] ?? { kind: 'perClass', amount: '', minimum: '' };
  const setDraft = (id: string, patch: Partial<Draft>) => {
    setDrafts((d) => ({ ...d, [id]: { ...draftOf(id), ...patch } }));
    setSaved(null);
  };
  const filled = rates.data.instructors.filter((i) => draftOf(i.id).amount.trim() !== '');

  const submit = async () => {
    setErrors({});
    setFailure(null);
    const local: Record<string, string> = {};
    const body = filled.map((i) => {
      const d = draftOf(i.id);
      const amount = toMinor(d.amount);
      const minimum = d.kind === 'perAttendee' && d.minimum ? toMinor(d.minimum) : 0;
      if (!Number.isFinite(amount) || amount < 0 || !Number.isFinite(minimum))
        local[i.id] = t('payroll.notAmount');
      return { instructorId: i.id, classServiceId: service || null, kind: d.kind, amount, minimum };
    });
    if (Object.keys(local).length > 0) return setErrors(local);
    setBusy(true);
    try {
      await save({ rates: body, remove: [] });
      setDrafts({});
      setSaved(body.length);
    } catch (err) {
      // `rates.3.amount` → the fourth filled row's instructor.
      const rowErrors: Record<string, string> = {};
      if (err instanceof ApiError)
        for (const [path, messages] of Object.entries(err.fields)) {
          const index = /^rates\.(\d+)\./.exec(path)?.[1];
          const who = index === undefined ? undefined : body[Number(index)]?.instructorId;
          if (who) rowErrors[who] = translateFieldMessage(messages[0] ?? '', t);
        }
      if (Object.keys(rowErrors).length > 0) setErrors(rowErrors);
      else setFailure(failureText(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="md" maw={1100} data-testid="bulk-pay-rates">
      <Anchor component={Link} to="/reports/pay-rates" size="sm">
        ← {t('payroll.title')}
      </Anchor>
      <Title order={1} size="h2">
        {t('payroll.bulkTitle')}
      </Title>
      <Text c="dimmed">{t('payroll.bulkIntro')}</Text>
      <Select
        label={t('payroll.classService')}
        data={[
          { value: '', label: t('payroll.allClasses') },
          ...rates.data.classServices.map((s) => ({ value: s.id, label: s.name })),
        ]}
        value={service}
        onChange={(v) => setService(v ?? '')}
        allowDeselect={false}
        maw={360}
        data-testid="bulk-class-service"
      />
      <Card withBorder radius="md" padding={0}>
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" data-testid="bulk-pay-rates-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('payroll.instructor')}</Table.Th>
                <Table.Th>{t('payroll.current')}</Table.Th>
                <Table.Th>{t('payroll.kind')}</Table.Th>
                <Table.Th>{t('payroll.amount')}</Table.Th>
                <Table.Th>{t('payroll.minimum')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rates.data.instructors.map((i) => {
                const d = draftOf(i.id);
                const now = current(i.id);
                return (
                  <Table.Tr key={i.id} data-testid="bulk-row">
                    <Table.Td>
                      <Anchor component={Link} to={`/reports/pay-rates/instructor/${i.id}`} size="sm">
                        {i.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c={now ? undefined : 'dimmed'}>
                        {now ? `${t(`payRule.${now.kind}`)}: ${describe(now)}` : t('payroll.noRateShort')}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Select
                        size="xs"
                        aria-label={`${t('payroll.kind')}: ${i.name}`}
                        data={PAY_RATE_KINDS.map((k) => ({ value: k, label: t(`payRule.${k}`) }))}
                        value={d.kind}
                        onChange={(v) => setDraft(i.id, { kind: (v ?? 'perClass') as PayRateKind })}
                        allowDeselect={false}
                        w={170}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        size="xs"
                        aria-label={`${d.kind === 'revenuePercent' ? t('payroll.percent') : t('payroll.amount')}: ${i.name}`}
                        placeholder={d.kind === 'revenuePercent' ? '%' : undefined}
                        inputMode="decimal"
                        value={d.amount}
                        onChange={(e) => setDraft(i.id, { amount: e.currentTarget.value })}
                        error={errors[i.id]}
                        w={120}
                        data-testid="bulk-amount"
                      />
                    </Table.Td>
                    <Table.Td>
                      {d.kind === 'perAttendee' && (
                        <TextInput
                          size="xs"
                          aria-label={`${t('payroll.minimum')}: ${i.name}`}
                          inputMode="decimal"
                          value={d.minimum}
                          onChange={(e) => setDraft(i.id, { minimum: e.currentTarget.value })}
                          w={110}
                        />
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
      {failure && (
        <Alert color="red" variant="light">
          {failure}
        </Alert>
      )}
      {saved !== null && (
        <Alert color="teal" variant="light" data-testid="bulk-saved">
          {t('payroll.bulkSaved', { count: saved })}
        </Alert>
      )}
      <Group>
        <Button
          onClick={() => void submit()}
          loading={busy}
          disabled={filled.length === 0}
          data-testid="bulk-save"
        >
          {t('payroll.bulkSave', { count: filled.length })}
        </Button>
      </Group>
    </Stack>
  );
}
