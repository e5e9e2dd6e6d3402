import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Collapse,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { ClientListInit, ClientListItem } from '../../../shared/contracts/api/clients';
import { useBackoffice } from '../backoffice.api';
import { IdentityReaderDialog } from '../client-identities/IdentityReaderDialog';
import { AddClientDialog } from './AddClientDialog';
import { BulkBar } from './BulkBar';
import { ClientFiltersPanel } from './ClientFiltersPanel';
import {
  activeFilterCount,
  filtersFromSearchParams,
  filtersToSearchParams,
  rememberListSearch,
  PANEL_DEFAULTS,
  type ClientListFilters,
} from './client-filters';
import { SEARCH_DELAY_MS, useClientList, useClientListInit, usePhone } from './clients.api';
import { ClientsLoadError, ClientsLoading } from './ClientStates';
import { ExportDialog } from './ExportDialog';
import { formatDate } from './format';
import { ProvisionalBadge } from '../sync/ProvisionalBadge';

/** `#/clients`: search, filters, sort and keyset pages of the studio's clients, with bulk actions. */
export function ClientListScreen() {
  const init = useClientListInit();
  if (init.error) return <ClientsLoadError error={init.error} onRetry={() => void init.refetch()} />;
  if (!init.data) return <ClientsLoading />;
  return <ClientList init={init.data} />;
}

/** The query of the address bar's hash route (`#/clients?q=…`), as it is now. */
function addressSearchParams(): URLSearchParams {
  const hash = window.location.hash;
  const at = hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
}

function ClientList({ init }: { init: ClientListInit }) {
  const { t } = useTranslation('clients');
  const phone = usePhone();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromSearchParams(params), [params]);
  // The router applies a navigation to `filters` inside a transition, after the address bar changed:
  // a change made before that render (a tag picked just after the search was cleared) merged into
  // the old filters and brought the cleared search back. So a change is a patch on the filters of
  // the address as it is now.
  const changeFilters = (patch: Partial<ClientListFilters>) =>
    setParams(filtersToSearchParams({ ...filtersFromSearchParams(addressSearchParams()), ...patch }), {
      replace: true,
    });
  useEffect(() => rememberListSearch(params.toString()), [params]);

  // The box shows what is typed; the list follows once typing pauses.
  const [search, setSearch] = useState(filters.q);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  useEffect(() => {
    if (debounced !== filters.q) changeFilters({ q: debounced });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new debounced value applies
  }, [debounced]);

  const [filtersOpen, setFiltersOpen] = useState(activeFilterCount(filters) > 0);
  const [adding, setAdding] = useState(false);
  const [reading, setReading] = useState(false);
  const [exporting, setExporting] = useState(false);
  const list = useClientList(filters);
  // A selection belongs to the list it was made in: another search or filter starts an empty one.
  const queryKey = filtersToSearchParams(filters).toString();
  const [selection, setSelection] = useState<{ key: string; clients: Map<string, ClientListItem> }>({
    key: queryKey,
    clients: new Map(),
  });
  const selected = selection.key === queryKey ? selection.clients : new Map<string, ClientListItem>();
  const setSelected = (
    update:
      Map<string, ClientListItem> | ((previous: Map<string, ClientListItem>) => Map<string, ClientListItem>),
  ) =>
    setSelection((current) => {
      const previous = current.key === queryKey ? current.clients : new Map<string, ClientListItem>();
      return { key: queryKey, clients: typeof update === 'function' ? update(previous) : update };
    });

  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const { abilities } = init;
  const selectable =
    init.bulkActions.length > 0 && (abilities.canEdit || abilities.canMessage || abilities.canExport);
  const toggle = (client: ClientListItem) =>
    setSelected((previous) => {
      const next = new Map(previous);
      if (next.has(client.id)) next.delete(client.id);
      else next.set(client.id, client);
      return next;
    });
  const allShown = items.length > 0 && items.every((c) => selected.has(c.id));
  const toggleAll = () =>
    setSelected((previous) => {
      const next = new Map(previous);
      for (const c of items) {
        if (allShown) next.delete(c.id);
        else next.set(c.id, c);
      }
      return next;
    });
  const filterCount = activeFilterCount(filters);

  return (
    <Stack gap="md" maw={1200} pb={selected.size > 0 ? 120 : 0}>
      <Group justify="space-between" align="center" gap="sm">
        <Title order={1} size="h2">
          {t('list.title')}
        </Title>
        <Group gap="xs">
          <Button variant="default" onClick={() => setReading(true)} data-testid="clients-read-card">
            {t('reader.open')}
          </Button>
          {abilities.canExport ? (
            <Button variant="default" onClick={() => setExporting(true)} data-testid="clients-export">
              {t('list.export')}
            </Button>
          ) : null}
          {abilities.canEdit ? (
            <Button onClick={() => setAdding(true)} data-testid="clients-add">
              {t('list.add')}
            </Button>
          ) : null}
        </Group>
      </Group>

      <Group gap="sm" align="flex-end" wrap={phone ? 'wrap' : 'nowrap'}>
        <TextInput
          label={t('list.search')}
          placeholder={t('list.searchPlaceholder')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          type="search"
          style={{ flex: 1, minWidth: phone ? '100%' : 240 }}
          data-testid="clients-search"
        />
        <Select
          label={t('list.sort')}
          data={init.sortOptions.map((value) => ({ value, label: t(`list.sorts.${value}`) }))}
          value={filters.sort}
          onChange={(value) => value && changeFilters({ sort: value as ClientListFilters['sort'] })}
          allowDeselect={false}
          w={phone ? undefined : 200}
          style={phone ? { flex: 1 } : undefined}
          data-testid="clients-sort"
        />
        <Button
          variant={filterCount > 0 ? 'light' : 'default'}
          onClick={() => setFiltersOpen((open) => !open)}
          aria-expanded={filtersOpen}
          rightSection={
            filterCount > 0 ? (
              <Badge size="sm" circle>
                {filterCount}
              </Badge>
            ) : null
          }
          data-testid="clients-filters-toggle"
        >
          {t('filters.title')}
        </Button>
      </Group>

      <Collapse in={filtersOpen}>
        <ClientFiltersPanel init={init} filters={filters} onChange={changeFilters} />
      </Collapse>

      {list.error ? (
        <ClientsLoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : list.isPending ? (
        <ClientsLoading />
      ) : items.length === 0 ? (
        <Paper withBorder p="lg" radius="md" data-testid="clients-empty">
          <Stack align="center" gap="xs">
            <Text c="dimmed" ta="center">
              {filterCount > 0 || filters.q ? t('list.emptyFiltered') : t('list.empty')}
            </Text>
            {filterCount > 0 || filters.q ? (
              <Button
                variant="subtle"
                onClick={() => {
                  setSearch('');
                  changeFilters({ ...PANEL_DEFAULTS, q: '' });
                }}
              >
                {t('filters.clear')}
              </Button>
            ) : null}
          </Stack>
        </Paper>
      ) : phone ? (
        <Stack gap="sm" data-testid="clients-cards">
          {selectable ? (
            <Checkbox label={t('list.selectShown')} checked={allShown} onChange={toggleAll} />
          ) : null}
          {items.map((client) => (
            <ClientCard
              key={client.id}
              client={client}
              selectable={selectable}
              selected={selected.has(client.id)}
              onToggle={() => toggle(client)}
            />
          ))}
        </Stack>
      ) : (
        <ClientTable
          clients={items}
          selectable={selectable}
          selected={selected}
          allShown={allShown}
          onToggle={toggle}
          onToggleAll={toggleAll}
        />
      )}

      {list.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            onClick={() => void list.fetchNextPage()}
            loading={list.isFetchingNextPage}
            data-testid="clients-load-more"
          >
            {t('list.loadMore')}
          </Button>
        </Group>
      ) : null}

      {selected.size > 0 ? (
        <BulkBar init={init} selected={[...selected.values()]} onClear={() => setSelected(new Map())} />
      ) : null}
      <AddClientDialog opened={adding} onClose={() => setAdding(false)} />
      <IdentityReaderDialog opened={reading} onClose={() => setReading(false)} />
      <ExportDialog
        opened={exporting}
        onClose={() => setExporting(false)}
        formats={init.exportFormats}
        target={{ kind: 'filters', filters }}
      />
    </Stack>
  );
}

function ClientTags({ client }: { client: ClientListItem }) {
  return (
    <>
      {client.tags.map((tag) => (
        <Badge key={tag.id} size="sm" variant="light" color="gray" style={{ textTransform: 'none' }}>
          {tag.name}
        </Badge>
      ))}
    </>
  );
}

function StatusBadges({ client }: { client: ClientListItem }) {
  const { t } = useTranslation('clients');
  return (
    <>
      {client.hasValidPass ? (
        <Badge size="sm" variant="light" color="teal" style={{ textTransform: 'none' }}>
          {t('list.validPass')}
        </Badge>
      ) : null}
      {client.status === 'archived' ? (
        <Badge size="sm" variant="outline" color="gray" style={{ textTransform: 'none' }}>
          {t('status.archived')}
        </Badge>
      ) : null}
      <ProvisionalBadge provisional={client.provisional} />
    </>
  );
}

const fullName = (c: Pick<ClientListItem, 'firstName' | 'lastName'>) => `${c.firstName} ${c.lastName}`.trim();

function ClientTable({
  clients,
  selectable,
  selected,
  allShown,
  onToggle,
  onToggleAll,
}: {
  clients: ClientListItem[];
  selectable: boolean;
  selected: Map<string, ClientListItem>;
  allShown: boolean;
  onToggle(client: ClientListItem): void;
  onToggleAll(): void;
}) {
  const { t, i18n } = useTranslation('clients');
  const { timeZone } = useBackoffice().studio;
  return (
    <Paper withBorder radius="md" style={{ overflow: 'auto' }}>
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="clients-table">
        <Table.Thead>
          <Table.Tr>
            {selectable ? (
              <Table.Th style={{ width: 1 }}>
                <Checkbox aria-label={t('list.selectShown')} checked={allShown} onChange={onToggleAll} />
              </Table.Th>
            ) : null}
            <Table.Th>{t('fields.name')}</Table.Th>
            <Table.Th>{t('fields.contact')}</Table.Th>
            <Table.Th>{t('fields.tags')}</Table.Th>
            <Table.Th>{t('fields.createdAt')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clients.map((client) => (
            <Table.Tr key={client.id} data-testid="client-row" data-email={client.emailAddress ?? ''}>
              {selectable ? (
                <Table.Td>
                  <Checkbox
                    aria-label={t('list.select', { name: fullName(client) })}
                    checked={selected.has(client.id)}
                    onChange={() => onToggle(client)}
                    data-testid="client-select"
                  />
                </Table.Td>
              ) : null}
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Anchor
                    component={Link}
                    to={`/clients/${client.id}`}
                    fw={500}
                    size="sm"
                    data-testid="client-open"
                  >
                    {client.lastName} {client.firstName}
                  </Anchor>
                  <StatusBadges client={client} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{client.emailAddress ?? '—'}</Text>
                <Text size="xs" c="dimmed">
                  {client.phone ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  <ClientTags client={client} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {formatDate(client.createdAt, i18n.language, timeZone)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function ClientCard({
  client,
  selectable,
  selected,
  onToggle,
}: {
  client: ClientListItem;
  selectable: boolean;
  selected: boolean;
  onToggle(): void;
}) {
  const { t } = useTranslation('clients');
  return (
    <Card withBorder radius="md" padding="sm" data-testid="client-row" data-email={client.emailAddress ?? ''}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {selectable ? (
          <Checkbox
            mt={4}
            aria-label={t('list.select', { name: fullName(client) })}
            checked={selected}
            onChange={onToggle}
            data-testid="client-select"
          />
        ) : null}
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Anchor component={Link} to={`/clients/${client.id}`} fw={600} data-testid="client-open">
            {client.lastName} {client.firstName}
          </Anchor>
          {client.emailAddress ? (
            <Text size="sm" c="dimmed" truncate>
              {client.emailAddress}
            </Text>
          ) : null}
          {client.phone ? (
            <Text size="sm" c="dimmed">
              {client.phone}
            </Text>
          ) : null}
          <Group gap={4}>
            <StatusBadges client={client} />
            <ClientTags client={client} />
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
