import {
  Alert,
  Badge,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ManagerPassQuery } from '../../../shared/contracts/api/catalog-screens';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import {
  catalogCalls,
  formatDay,
  problemsError,
  useCatalogSubmit,
  useInvalidateCatalog,
  useLocaleName,
  useManagerPasses,
  usePricingOptions,
  useStudio,
} from './catalog.api';
import { Empty, LoadError, Loading, usePhone } from './CatalogScreen';
import { STATUS_COLORS } from '../../features/catalog/labels';
import { PassChangeFields } from '../client-passes/PassChangeForm';
import { passChangePayload, type PassChangeFormValues } from './pricing-option-form';

const SHOWN_MAX = 300;

/**
 * The manager tool `client-pricing-option-bulk-change`: find passes (by pricing option and derived
 * status), tick them, and extend, freeze or change entries of all at once with one reason. All or
 * none: one pass the change does not fit refuses the whole change.
 */
export function BulkChangePanel() {
  const { t, i18n } = useTranslation('catalog');
  const phone = usePhone();
  const api = useApiClient();
  const studio = useStudio();
  const name = useLocaleName();
  const invalidate = useInvalidateCatalog();
  const options = usePricingOptions({ archived: 'include' });
  const [query, setQuery] = useState<ManagerPassQuery>({ status: 'active' });
  const passes = useManagerPasses(query, true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [change, setChange] = useState<PassChangeFormValues>({
    kind: 'extend',
    extendDays: '',
    freezeFrom: '',
    freezeTo: '',
    entriesDelta: '',
    note: '',
  });
  const [done, setDone] = useState<number | null>(null);
  const submit = useCatalogSubmit(['extendDays', 'freeze.from', 'freeze.to', 'entriesDelta', 'note']);
  const items = passes.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((p) => selected.has(p.id));
  const filter = (patch: Partial<ManagerPassQuery>) => {
    setQuery((q) => ({ ...q, ...patch }));
    setSelected(new Set());
  };

  const apply = () =>
    void submit
      .run(async () => {
        const mapped = passChangePayload(change);
        if (!mapped.ok) throw problemsError(t, mapped.fields);
        if (selected.size === 0) throw problemsError(t, { '': ['errors.choosePasses'] });
        return catalogCalls.bulkChange(api, studio.uuid, {
          clientPricingOptionIds: [...selected],
          ...mapped.payload,
        });
      })
      .then((result) => {
        if (!result) return;
        setDone(result.changed);
        setSelected(new Set());
        void invalidate();
      });

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('bulk.hint')}
      </Text>
      <Group gap="sm" align="flex-end" wrap={phone ? 'wrap' : 'nowrap'}>
        <Select
          label={t('bulk.option')}
          placeholder={t('bulk.anyOption')}
          data={(options.data?.items ?? []).map((o) => ({ value: o.id, label: name(o.name) }))}
          value={query.pricingOptionId ?? null}
          onChange={(v) => filter({ pricingOptionId: v ?? undefined })}
          clearable
          searchable
          w={phone ? '100%' : 320}
          data-testid="bulk-option"
        />
        <SegmentedControl
          value={query.status}
          onChange={(v) => filter({ status: v as ManagerPassQuery['status'] })}
          data={(['active', 'notActivated', 'inactive', 'all'] as const).map((s) => ({
            value: s,
            label: t(`bulk.status.${s}`),
          }))}
          fullWidth={phone}
          w={phone ? '100%' : undefined}
          size={phone ? 'xs' : 'sm'}
        />
      </Group>
      {passes.error ? (
        <LoadError error={passes.error} onRetry={() => void passes.refetch()} />
      ) : passes.isPending ? (
        <Loading />
      ) : items.length === 0 ? (
        <Empty text={t('bulk.none')} />
      ) : (
        <Paper withBorder radius="md">
          <Table.ScrollContainer minWidth={phone ? 0 : 640} mah={420}>
            <Table verticalSpacing={6} stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label={t('bulk.selectAll')}
                      checked={allSelected}
                      indeterminate={!allSelected && selected.size > 0}
                      onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((p) => p.id)))}
                      data-testid="bulk-select-all"
                    />
                  </Table.Th>
                  <Table.Th>{t('bulk.client')}</Table.Th>
                  {phone ? null : <Table.Th>{t('bulk.pass')}</Table.Th>}
                  <Table.Th>{t('passes.validity')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.slice(0, SHOWN_MAX).map((p) => (
                  <Table.Tr key={p.id} data-testid="bulk-row">
                    <Table.Td>
                      <Checkbox
                        aria-label={`${p.client.firstName} ${p.client.lastName}`}
                        checked={selected.has(p.id)}
                        onChange={() =>
                          setSelected((s) => {
                            const next = new Set(s);
                            if (next.has(p.id)) next.delete(p.id);
                            else next.add(p.id);
                            return next;
                          })
                        }
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {p.client.firstName} {p.client.lastName}
                      </Text>
                      {phone ? (
                        <Text size="xs" c="dimmed">
                          {name(p.name)}
                        </Text>
                      ) : null}
                    </Table.Td>
                    {phone ? null : (
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Text size="sm" truncate>
                            {name(p.name)}
                          </Text>
                          <Badge size="xs" variant="light" color={STATUS_COLORS[p.status]}>
                            {t(`enums:clientPricingOptionStatus.${p.status}`)}
                          </Badge>
                        </Group>
                      </Table.Td>
                    )}
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Text size="sm">
                        {p.lastValidDate ? formatDay(p.lastValidDate, i18n.language) : t('passes.noEnd')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {items.length > SHOWN_MAX || passes.data?.truncated ? (
            <Text size="xs" c="dimmed" p="xs">
              {t('bulk.more', { count: items.length - Math.min(items.length, SHOWN_MAX) })}
            </Text>
          ) : null}
        </Paper>
      )}
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md">
        <Stack gap="sm">
          <Text fw={600}>{t('bulk.change', { count: selected.size })}</Text>
          <FormErrorList errors={submit.formErrors} />
          <PassChangeFields values={change} onChange={setChange} errors={submit.fieldErrors} />
          {done !== null ? (
            <Alert color="green" variant="light" data-testid="bulk-done">
              {t('bulk.done', { count: done })}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <SubmitButton type="button" state={submit.state} onClick={apply} data-testid="bulk-apply">
              {t('bulk.apply', { count: selected.size })}
            </SubmitButton>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
