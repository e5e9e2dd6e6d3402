import { Anchor, Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { REPORT_GROUPS, type ReportGroup } from '../../../shared/contracts/api/reports';
import { useBackoffice } from '../backoffice.api';
import { useReportCatalog } from './reports.api';
import { Dac7Card } from './Dac7Card';
import { StudioExportCard } from './StudioExportCard';

/**
 * report/all as the Reports section (every group) and the Sales section (`group="sales"`): each
 * report with what it answers, opening it with this month's figures.
 */
export function ReportsScreen({ group }: { group?: ReportGroup }) {
  const { t } = useTranslation('reports');
  const catalog = useReportCatalog();
  const { member } = useBackoffice();
  const groups = group ? [group] : REPORT_GROUPS;
  return (
    <Stack gap="lg" maw={1100} data-testid="reports-catalog">
      <Title order={1} size="h2">
        {group ? t(`catalog.group.${group}`) : t('catalog.title')}
      </Title>
      <Text c="dimmed">{t('catalog.intro')}</Text>
      {catalog.isPending && <Loader size="sm" />}
      {groups.map((g) => {
        const items = catalog.data?.items.filter((i) => i.group === g) ?? [];
        if (items.length === 0) return null;
        return (
          <Stack key={g} gap="xs">
            {!group && (
              <Title order={2} size="h4">
                {t(`catalog.group.${g}`)}
              </Title>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
              {items.map((item) => (
                <Card key={item.id} withBorder radius="md" padding="md">
                  <Anchor
                    component={Link}
                    to={`/reports/${item.id}`}
                    fw={600}
                    data-testid={`report-link-${item.id}`}
                  >
                    {t(`report.${item.id}.title`)}
                  </Anchor>
                  <Text size="sm" c="dimmed" mt={4}>
                    {t(`report.${item.id}.description`)}
                  </Text>
                </Card>
              ))}
              {g === 'payroll' && (
                <Card withBorder radius="md" padding="md">
                  <Anchor
                    component={Link}
                    to="/reports/pay-rates"
                    fw={600}
                    data-testid="report-link-pay-rates"
                  >
                    {t('payroll.title')}
                  </Anchor>
                  <Text size="sm" c="dimmed" mt={4}>
                    {t('payroll.intro')}
                  </Text>
                </Card>
              )}
            </SimpleGrid>
          </Stack>
        );
      })}
      {!group && member.abilities.includes('clients.export') && <StudioExportCard />}
      {!group && <Dac7Card />}
    </Stack>
  );
}

export function SalesScreen() {
  return <ReportsScreen group="sales" />;
}
