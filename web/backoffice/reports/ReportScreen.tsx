import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Select,
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
  ATTENDANCE_GROUPS,
  REPORT_RANGE_MESSAGES,
  ReportQuerySchema,
  type ReportFilter,
  type ReportQuery,
} from '../../../shared/contracts/api/reports';
import { useBackoffice } from '../backoffice.api';
import { useCellFormat, useExportHref, useReportCatalog, useReportData } from './reports.api';

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
function monthOf(offset: number): { from: string; to: string } {
  const now = new Date();
  return {
    from: ymd(new Date(now.getFullYear(), now.getMonth() + offset, 1)),
    to: ymd(new Date(now.getFullYear(), now.getMonth() + offset + 1, 0)),
  };
}
const RANGE_KEYS: Record<string, string> = Object.fromEntries(
  Object.entries(REPORT_RANGE_MESSAGES).map(([key, message]) => [message, `range.${key}`]),
);
type Filters = Omit<ReportQuery, 'from' | 'to'>;

/** One report: its period and filters, its rows and totals, and its export to CSV and Excel. */
export function ReportScreen() {
  const { t } = useTranslation('reports');
  const { t: tEnums } = useTranslation('enums');
  const { report = '' } = useParams();
  const { studio } = useBackoffice();
  const [range, setRange] = useState(() => monthOf(0));
  const [filters, setFilters] = useState<Filters>({});
  const catalog = useReportCatalog();
  const item = catalog.data?.items.find((i) => i.id === report);
  const query = useMemo(() => ({ ...range, ...filters }), [range, filters]);
  const check = ReportQuerySchema.safeParse(query);
  const rangeError = check.success ? null : (RANGE_KEYS[check.error.issues[0]!.message] ?? 'range.order');
  const data = useReportData(report, query, check.success && Boolean(item));
  const cell = useCellFormat(data.data?.currency ?? studio.currency);
  const href = useExportHref();
  const options = catalog.data?.options;
  const choices: Record<Exclude<ReportFilter, 'groupBy'>, Array<{ value: string; label: string }>> = {
    location: options?.locations.map((o) => ({ value: o.id, label: o.name })) ?? [],
    instructor: options?.instructors.map((o) => ({ value: o.id, label: o.name })) ?? [],
    classService: options?.classServices.map((o) => ({ value: o.id, label: o.name })) ?? [],
    pricingOption: options?.pricingOptions.map((o) => ({ value: o.id, label: o.name })) ?? [],
    method: options?.methods.map((m) => ({ value: String(m), label: tEnums(`paymentMethod.${m}`) })) ?? [],
  };
  const setFilter = (key: ReportFilter, value: string | null) =>
    setFilters((f) => ({ ...f, [key]: value ? (key === 'method' ? Number(value) : value) : undefined }));

  if (catalog.isPending) return <Loader size="sm" />;
  if (!item)
    return (
      <Alert color="red" variant="light">
        {t('empty')}
      </Alert>
    );
  const columns = data.data?.columns ?? [];
  return (
    <Stack gap="md" maw={1200} data-testid={`report-${report}`}>
      <Anchor component={Link} to="/reports" size="sm">
        ← {t('back')}
      </Anchor>
      <Title order={1} size="h2">
        {t(`report.${report}.title`)}
      </Title>
      <Text c="dimmed">{t(`report.${report}.description`)}</Text>
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group align="end" wrap="wrap" gap="sm">
            <TextInput
              type="date"
              label={t('filter.from')}
              value={range.from}
              onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
              data-testid="report-from"
            />
            <TextInput
              type="date"
              label={t('filter.to')}
              value={range.to}
              onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
              data-testid="report-to"
            />
            <Group gap={4}>
              <Button
                variant="light"
                size="xs"
                onClick={() => setRange(monthOf(0))}
                data-testid="report-this-month"
              >
                {t('filter.thisMonth')}
              </Button>
              <Button
                variant="light"
                size="xs"
                onClick={() => setRange(monthOf(-1))}
                data-testid="report-last-month"
              >
                {t('filter.lastMonth')}
              </Button>
              <Button
                variant="light"
                size="xs"
                onClick={() => setRange({ from: `${new Date().getFullYear()}-01-01`, to: ymd(new Date()) })}
              >
                {t('filter.thisYear')}
              </Button>
            </Group>
          </Group>
          {item.filters.length > 0 && (
            <Group align="end" wrap="wrap" gap="sm">
              {item.filters.map((f) =>
                f === 'groupBy' ? (
                  <Select
                    key={f}
                    label={t('filter.groupBy')}
                    data={ATTENDANCE_GROUPS.map((g) => ({ value: g, label: t(`groupBy.${g}`) }))}
                    value={filters.groupBy ?? 'classService'}
                    onChange={(v) => setFilter('groupBy', v)}
                    allowDeselect={false}
                    w={180}
                    data-testid="report-group-by"
                  />
                ) : (
                  <Select
                    key={f}
                    label={t(`filter.${f}`)}
                    placeholder={t('filter.all')}
                    data={choices[f]}
                    value={filters[f] === undefined ? null : String(filters[f])}
                    onChange={(v) => setFilter(f, v)}
                    clearable
                    searchable
                    w={200}
                  />
                ),
              )}
            </Group>
          )}
          {rangeError && (
            <Text c="red" size="sm">
              {t(rangeError)}
            </Text>
          )}
          <Group gap="xs">
            <Button
              component="a"
              href={href(report, query, 'csv')}
              variant="default"
              size="xs"
              disabled={!check.success}
              data-testid="report-export-csv"
            >
              {t('export.csv')}
            </Button>
            <Button
              component="a"
              href={href(report, query, 'xlsx')}
              variant="default"
              size="xs"
              disabled={!check.success}
              data-testid="report-export-xlsx"
            >
              {t('export.xlsx')}
            </Button>
          </Group>
        </Stack>
      </Card>
      {data.isFetching && !data.data && <Loader size="sm" />}
      {data.data && data.data.rows.length > 0 && (
        // The money totals at a glance, above a table that may scroll sideways on a phone.
        <Group gap="lg" data-testid="report-summary">
          {columns
            .filter((c) => c.total && c.kind === 'money')
            .map((c) => (
              <Stack key={c.key} gap={0}>
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {t(`column.${c.key}`)}
                </Text>
                <Text fw={700}>{cell(c, data.data.totals[c.key] ?? 0)}</Text>
              </Stack>
            ))}
        </Group>
      )}
      {data.data && (
        <Card withBorder radius="md" padding={0}>
          {data.data.rows.length === 0 ? (
            <Text c="dimmed" p="md" data-testid="report-empty">
              {t('empty')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={Math.max(480, columns.length * 120)}>
              <Table striped highlightOnHover stickyHeader verticalSpacing="xs" data-testid="report-table">
                <Table.Thead>
                  <Table.Tr>
                    {columns.map((c) => (
                      <Table.Th key={c.key} ta={c.kind === 'text' || c.kind === 'label' ? 'left' : 'right'}>
                        {t(`column.${c.key}`)}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.rows.map((row, i) => (
                    <Table.Tr key={i}>
                      {columns.map((c) => (
                        <Table.Td key={c.key} ta={c.kind === 'text' || c.kind === 'label' ? 'left' : 'right'}>
                          {cell(c, row[c.key] ?? null)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr fw={700} data-testid="report-totals">
                    {columns.map((c, i) => (
                      <Table.Td key={c.key} ta={c.kind === 'text' || c.kind === 'label' ? 'left' : 'right'}>
                        {i === 0 ? t('totals') : c.total ? cell(c, data.data.totals[c.key] ?? 0) : ''}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </Table.ScrollContainer>
          )}
          <Text size="xs" c="dimmed" p="xs">
            {data.data.truncated
              ? t('truncated', { shown: data.data.rows.length, count: data.data.rowCount })
              : t('rows', { count: data.data.rowCount })}
          </Text>
        </Card>
      )}
    </Stack>
  );
}
