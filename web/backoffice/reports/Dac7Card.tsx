import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { money } from '../invoices/invoices.api';
import { useDac7Reports } from './reports.api';

/**
 * DAC7 (dac7-report/collection): what the platform reports of the studio to the tax authority per
 * year — `requireInput` says what to fill in the invoice settings, `completed` shows the quarters.
 */
export function Dac7Card() {
  const { t, i18n } = useTranslation('reports');
  const reports = useDac7Reports(true);
  const items = reports.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="md" data-testid="dac7">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('dac7.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('dac7.intro')}
        </Text>
        {items.map((r) => (
          <Stack key={r.year} gap={4}>
            <Group gap="xs">
              <Text fw={600}>{r.year}</Text>
              <Badge color={r.status === 'completed' ? 'teal' : 'orange'} variant="light">
                {t(`dac7.status.${r.status}`)}
              </Badge>
            </Group>
            {r.status === 'requireInput' && (
              <Text size="sm">
                {t('dac7.missing', { fields: r.missing.map((f) => t(`dac7.field.${f}`)).join(', ') })}{' '}
                <Anchor component={Link} to="/invoices/settings" size="sm">
                  {t('dac7.fill')}
                </Anchor>
              </Text>
            )}
            <Table.ScrollContainer minWidth={360}>
              <Table verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('dac7.quarter')}</Table.Th>
                    <Table.Th ta="right">{t('dac7.consideration')}</Table.Th>
                    <Table.Th ta="right">{t('dac7.activities')}</Table.Th>
                    <Table.Th ta="right">{t('dac7.fees')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.quarters.map((q) => (
                    <Table.Tr key={q.quarter}>
                      <Table.Td>Q{q.quarter}</Table.Td>
                      <Table.Td ta="right">{money(q.consideration, r.currency, i18n.language)}</Table.Td>
                      <Table.Td ta="right">{q.activities}</Table.Td>
                      <Table.Td ta="right">{money(q.fees, r.currency, i18n.language)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
