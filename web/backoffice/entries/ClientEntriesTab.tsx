import { Badge, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { resolveLocaleText } from '../../../shared/domain/locale-text';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { ListEmpty, ListLoadError, ListLoading, usePhone } from '../list-frame';
import { useStudioDateTime } from '../use-studio-date-time';
import { useClientEntries } from './entries.api';

/** The client profile's "Entries" tab (`client/{user}/client-entry/collection`): newest first. */
export function ClientEntriesTab({ clientId }: ClientProfileTabProps) {
  const { t, i18n } = useTranslation('entries');
  const when = useStudioDateTime();
  const phone = usePhone();
  const entries = useClientEntries(clientId);
  if (entries.isError)
    return (
      <ListLoadError
        error={entries.error}
        title={t('loadError')}
        retry={t('retry')}
        testId="client-entries-error"
        onRetry={() => void entries.refetch()}
      />
    );
  if (!entries.data) return <ListLoading />;
  if (entries.data.items.length === 0)
    return <ListEmpty text={t('client.empty')} testId="client-entries-empty" />;
  const name = (text: Record<string, { value: string } | undefined>) =>
    resolveLocaleText(text, i18n.language, 'pl');
  const source = (s: 'desk' | 'kiosk') => (
    <Badge variant="light" color={s === 'kiosk' ? 'grape' : 'blue'}>
      {t(`client.source.${s}`)}
    </Badge>
  );
  if (phone)
    return (
      <Stack gap="xs" data-testid="client-entries">
        {entries.data.items.map((e) => (
          <Paper key={e.id} withBorder p="sm" radius="md" data-testid="client-entry-row">
            <Group justify="space-between">
              <Text fw={600}>{name(e.serviceName)}</Text>
              {source(e.source)}
            </Group>
            <Text size="sm">{when(e.enteredAt)}</Text>
            <Text size="sm" c="dimmed">
              {e.pass ? name(e.pass.name) : t('client.noPass')}
              {e.enrolledBy ? ` · ${e.enrolledBy}` : ''}
            </Text>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table striped data-testid="client-entries">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('client.when')}</Table.Th>
          <Table.Th>{t('client.service')}</Table.Th>
          <Table.Th>{t('client.pass')}</Table.Th>
          <Table.Th>{t('client.how')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {entries.data.items.map((e) => (
          <Table.Tr key={e.id} data-testid="client-entry-row">
            <Table.Td>{when(e.enteredAt)}</Table.Td>
            <Table.Td>{name(e.serviceName)}</Table.Td>
            <Table.Td>{e.pass ? name(e.pass.name) : t('client.noPass')}</Table.Td>
            <Table.Td>
              <Group gap={6}>
                {source(e.source)}
                {e.enrolledBy && <Text size="sm">{e.enrolledBy}</Text>}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
