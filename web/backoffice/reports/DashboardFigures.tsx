import '@mantine/charts/styles.css';
import { AreaChart, BarChart } from '@mantine/charts';
import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Loader,
  Progress,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useBackoffice } from '../backoffice.api';
import { formatPriceIn } from '../../../shared/domain/money/format-price';
import { money } from '../invoices/invoices.api';
import { useDashboard, useReportCatalog, useSetDashboardLocations } from './reports.api';
import { formatDayLabel, formatTime } from '../../../shared/i18n/dates';

/** Whole units on the chart's axis and tooltip ("1 800 zł"): the cards carry the exact figures. */
function wholeUnits(units: number, currency: string, language: string): string {
  return formatPriceIn(language, Math.round(units) * 100, currency);
}

/** Where a figure leads: the list or report behind it. */
function FigureCard(props: { label: string; value: string; detail?: string; to: string; testId: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={props.testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {props.label}
      </Text>
      <Anchor
        component={Link}
        to={props.to}
        fw={700}
        fz="xl"
        mt={4}
        display="block"
        data-testid={`${props.testId}-value`}
      >
        {props.value}
      </Anchor>
      {props.detail && (
        <Text size="xs" c="dimmed" mt={2}>
          {props.detail}
        </Text>
      )}
    </Card>
  );
}

function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text fw={600} mb="sm">
        {title}
      </Text>
      {children}
    </Card>
  );
}

/**
 * Today at a glance (issue 20): today's classes, revenue against last month, new clients, what
 * expires, failed instalments, waiting lists — each linking to the list behind it — and the charts
 * of revenue by day and visits by weekday and hour. Its own chunk: the charts library loads only here.
 */
export function DashboardFigures() {
  const { t, i18n } = useTranslation('reports');
  const { studio } = useBackoffice();
  const [view, setView] = useState('mine');
  const dashboard = useDashboard(view);
  const setMine = useSetDashboardLocations();
  const [saving, setSaving] = useState(false);
  const catalog = useReportCatalog();
  const locations = catalog.data?.options.locations ?? [];
  if (dashboard.isPending) return <Loader size="sm" />;
  if (!dashboard.data)
    return (
      <Alert color="red" variant="light">
        {t('empty')}
      </Alert>
    );
  const d = dashboard.data;
  const price = (amount: number) => money(amount, d.currency, i18n.language);
  const time = { format: (at: Date) => formatTime(at, i18n.language, studio.timeZone) };
  const dayLabel = { format: (at: Date) => formatDayLabel(at, i18n.language, 'UTC') };
  return (
    <Stack gap="md" data-testid="dashboard-figures">
      {locations.length > 1 && (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={t('dashboard.location')}
            data={[
              ...(d.myLocations.length ? [{ value: 'mine', label: t('dashboard.myLocationsView') }] : []),
              { value: 'all', label: t('dashboard.allLocations') },
              ...locations.map((l) => ({ value: l.id, label: l.name })),
            ]}
            value={view === 'mine' && !d.myLocations.length ? 'all' : view}
            onChange={(v) => setView(v ?? 'mine')}
            w={{ base: '100%', xs: 260 }}
            allowDeselect={false}
            data-testid="dashboard-location"
          />
          <MultiSelect
            label={t('dashboard.myLocations')}
            description={t('dashboard.myLocationsHint')}
            placeholder={d.myLocations.length ? undefined : t('dashboard.allLocations')}
            data={locations.map((l) => ({ value: l.id, label: l.name }))}
            value={d.myLocations}
            disabled={saving}
            onChange={(ids) => {
              setSaving(true);
              setView('mine');
              void setMine(ids).finally(() => setSaving(false));
            }}
            w={{ base: '100%', xs: 360 }}
            data-testid="dashboard-my-locations"
          />
        </Group>
      )}
      <SimpleGrid cols={{ base: 2, md: 3 }} spacing={{ base: 'xs', sm: 'md' }}>
        <FigureCard
          testId="dash-revenue-today"
          label={t('dashboard.revenueToday')}
          value={price(d.revenue.today)}
          to="/reports/sales-by-day"
        />
        <FigureCard
          testId="dash-revenue-month"
          label={t('dashboard.revenueMonth')}
          value={price(d.revenue.month)}
          detail={`${t('dashboard.vsLastMonth', { amount: price(d.revenue.lastMonthToDate) })} · ${t('dashboard.lastMonth', { amount: price(d.revenue.lastMonth) })}`}
          to="/reports/sales-by-item"
        />
        <FigureCard
          testId="dash-new-clients"
          label={t('dashboard.newClients')}
          value={String(d.newClients.month)}
          detail={t('dashboard.newClientsDetail', d.newClients)}
          to="/clients"
        />
        <FigureCard
          testId="dash-expiring"
          label={t('dashboard.expiring')}
          value={String(d.expiring.passes + d.expiring.contracts)}
          detail={t('dashboard.expiringDetail', d.expiring)}
          to="/reports/pass-liability"
        />
        <FigureCard
          testId="dash-failed"
          label={t('dashboard.failedInstalments')}
          value={String(d.failedInstalments)}
          to="/reports/outstanding"
        />
        <FigureCard
          testId="dash-waiting"
          label={t('dashboard.waitingList')}
          value={String(d.waitingList)}
          to="/schedule"
        />
      </SimpleGrid>
      <Card withBorder radius="md" padding="md" data-testid="dash-classes">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4">
            {t('dashboard.classesToday')}
          </Title>
          <Anchor component={Link} to="/schedule" size="sm">
            {t('dashboard.openList')}
          </Anchor>
        </Group>
        {d.classes.length === 0 ? (
          <Text c="dimmed">{t('dashboard.noClasses')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing="xs">
              <Table.Tbody>
                {d.classes.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td w={80} style={{ whiteSpace: 'nowrap' }}>
                      {time.format(new Date(c.startsAt))}
                    </Table.Td>
                    <Table.Td>
                      <Text fw={500} size="sm">
                        {c.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {c.location}
                      </Text>
                    </Table.Td>
                    <Table.Td w={180}>
                      <Text size="xs">
                        {t('dashboard.booked', { booked: c.booked, capacity: c.capacity })}
                      </Text>
                      <Progress value={c.capacity ? (100 * c.booked) / c.capacity : 0} size="sm" mt={4} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4}>
                        <Badge variant="light" color="teal">
                          {t('dashboard.checkedIn', { count: c.checkedIn })}
                        </Badge>
                        {c.waiting > 0 && (
                          <Badge variant="light" color="orange">
                            {t('dashboard.waiting', { count: c.waiting })}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <ChartCard title={t('dashboard.revenueByDay')}>
        <AreaChart
          h={220}
          data={d.revenueByDay.map((r) => ({
            day: dayLabel.format(new Date(`${r.day}T12:00:00Z`)),
            amount: r.amount / 100,
          }))}
          dataKey="day"
          series={[{ name: 'amount', label: t('dashboard.amount'), color: 'indigo.6' }]}
          valueFormatter={(v) => wholeUnits(v, d.currency, i18n.language)}
          curveType="monotone"
          withDots={false}
          data-testid="chart-revenue"
        />
      </ChartCard>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ChartCard title={t('dashboard.attendanceByWeekday')}>
          <BarChart
            h={200}
            data={d.attendanceByWeekday.map((w) => ({
              weekday: t(`weekdayShort.${w.weekday}`),
              visits: w.visits,
            }))}
            dataKey="weekday"
            series={[{ name: 'visits', label: t('dashboard.visits'), color: 'teal.6' }]}
          />
        </ChartCard>
        <ChartCard title={t('dashboard.attendanceByHour')}>
          <BarChart
            h={200}
            data={d.attendanceByHour.map((h) => ({ hour: `${h.hour}:00`, visits: h.visits }))}
            dataKey="hour"
            series={[{ name: 'visits', label: t('dashboard.visits'), color: 'cyan.6' }]}
          />
        </ChartCard>
      </SimpleGrid>
    </Stack>
  );
}
