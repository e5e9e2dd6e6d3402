import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { ContractView } from '../../../shared/contracts/api/contracts';
import { useCan, useLocaleName } from '../catalog/catalog.api';
import { ArchivedFilterControl, Empty, LoadError, Loading, usePhone } from '../catalog/CatalogScreen';
import type { ArchivedFilter } from '../catalog/CatalogScreen';
import { RowCard } from '../list-frame';
import { useContracts } from './contracts.api';
import {
  activationLabel,
  durationLabel,
  noticeLabel,
  pricePerPeriod,
  signUpFeeLabel,
} from '../../features/contracts/labels';

/** `#/contracts`: the studio's contracts (memberships) with their terms; managers add and edit them. */
export function ContractsScreen() {
  const { t } = useTranslation('contracts');
  const phone = usePhone();
  const navigate = useNavigate();
  const canEdit = useCan('settings.edit');
  const [archived, setArchived] = useState<ArchivedFilter>('exclude');
  const list = useContracts(archived);
  const open = (c: ContractView) => navigate(`/contracts/${c.id}`);
  const items = list.data?.items ?? [];

  return (
    <Stack gap="lg" maw={1100} data-testid="contracts-screen">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('subtitle')}
        </Text>
      </Stack>
      <Group justify="space-between" align="flex-end" gap="sm">
        <ArchivedFilterControl
          value={archived}
          onChange={setArchived}
          phone={phone}
          testId="contracts-archived-filter"
          t={t}
        />
        {canEdit ? (
          <Button onClick={() => navigate('/contracts/new')} fullWidth={phone} data-testid="contracts-add">
            {t('list.add')}
          </Button>
        ) : null}
      </Group>
      {list.error ? (
        <LoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <Empty text={archived === 'only' ? t('list.noArchived') : t('list.empty')} />
      ) : phone ? (
        <Stack gap="xs">
          {items.map((c) => (
            <ContractCard key={c.id} contract={c} onOpen={() => open(c)} />
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover verticalSpacing="xs" layout="fixed">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('list.name')}</Table.Th>
                <Table.Th ta="right" w={160}>
                  {t('list.price')}
                </Table.Th>
                <Table.Th w={190}>{t('list.duration')}</Table.Th>
                <Table.Th w={190}>{t('list.activation')}</Table.Th>
                <Table.Th w={100}>{t('list.sold')}</Table.Th>
                <Table.Th w={130}>{t('list.channels')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((c) => (
                <ContractRow key={c.id} contract={c} onOpen={() => open(c)} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function useTexts(c: ContractView) {
  const { t, i18n } = useTranslation('contracts');
  const name = useLocaleName();
  return {
    name: name(c.name) || t('list.unnamed'),
    price: pricePerPeriod(t, c, i18n.language),
    fee: signUpFeeLabel(t, c, i18n.language),
    duration: durationLabel(t, c),
    activation: activationLabel(t, c),
    notice: noticeLabel(t, c),
    sold: t('list.soldCount', { count: c.activeClientContracts }),
  };
}

function Channels({ contract }: { contract: ContractView }) {
  const { t } = useTranslation('contracts');
  return (
    <Group gap={4}>
      {contract.sellAtDesk ? (
        <Badge variant="light" size="sm">
          {t('channels.desk')}
        </Badge>
      ) : null}
      {contract.sellOnline ? (
        <Badge variant="light" color="teal" size="sm">
          {t('channels.online')}
        </Badge>
      ) : null}
      {contract.archived ? (
        <Badge variant="light" color="gray" size="sm">
          {t('list.archivedShort')}
        </Badge>
      ) : null}
    </Group>
  );
}

function ContractRow({ contract, onOpen }: { contract: ContractView; onOpen(): void }) {
  const x = useTexts(contract);
  return (
    <Table.Tr onClick={onOpen} style={{ cursor: 'pointer' }} data-testid="contract-row" data-name={x.name}>
      <Table.Td>
        <Text fw={500} size="sm" truncate>
          {x.name}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm" fw={600}>
          {x.price}
        </Text>
        <Text size="xs" c="dimmed">
          {x.fee}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{x.duration}</Text>
        <Text size="xs" c="dimmed">
          {x.notice}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{x.activation}</Text>
      </Table.Td>
      <Table.Td>{x.sold}</Table.Td>
      <Table.Td>
        <Channels contract={contract} />
      </Table.Td>
    </Table.Tr>
  );
}

function ContractCard({ contract, onOpen }: { contract: ContractView; onOpen(): void }) {
  const x = useTexts(contract);
  return (
    <RowCard
      testId="contract-row"
      data={{ 'data-name': x.name }}
      onOpen={onOpen}
      main={
        <>
          <Text fw={600} lineClamp={2}>
            {x.name}
          </Text>
          <Text size="xs" c="dimmed">
            {x.duration} · {x.notice}
          </Text>
          <Text size="xs" c="dimmed">
            {x.activation} · {x.sold}
          </Text>
          <Channels contract={contract} />
        </>
      }
      side={
        <>
          <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
            {x.price}
          </Text>
          <Text size="xs" c="dimmed" ta="right">
            {x.fee}
          </Text>
        </>
      }
    />
  );
}
