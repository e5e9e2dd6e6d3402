import {
  Badge,
  Button,
  Card,
  Drawer,
  Group,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ClientContractEventView,
  ClientContractPatch,
  ClientContractView,
  InstalmentView,
} from '../../../shared/contracts/api/contracts';
import { localDateOf } from '../../../shared/domain/entitlements/local-dates';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useEditorForm } from '../../ui/use-editor-form';
import { formatDateTime, formatDay, price, useCan, useLocaleName, useStudio } from '../catalog/catalog.api';
import { Empty, LoadError, Loading, usePhone } from '../catalog/CatalogScreen';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import {
  contractCalls,
  useClientContractDetail,
  useClientContracts,
  useContractSubmit,
  useContracts,
  useInvalidateContracts,
} from '../contracts/contracts.api';
import {
  CLIENT_CONTRACT_STATUS_COLORS,
  INSTALMENT_STATUS_COLORS,
  durationLabel,
  noticeLabel,
  pricePerPeriod,
} from '../../features/contracts/labels';

type Action = 'suspend' | 'resume' | 'terminate';

/**
 * The client profile's Contracts tab: the client's contracts (status, price per period, dates, what
 * is still to pay), selling one at the desk, and per contract a drawer with the instalment schedule,
 * the history and the staff actions: suspend, resume, terminate with notice.
 */
export function ContractsTab({ clientId, profile }: ClientProfileTabProps) {
  const { t } = useTranslation('contracts');
  const contracts = useClientContracts(clientId);
  const canSell = useCan('sales.sell');
  const [selling, setSelling] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  if (contracts.error) return <LoadError error={contracts.error} onRetry={() => void contracts.refetch()} />;
  if (contracts.isPending) return <Loading />;
  const items = contracts.data.items;
  return (
    <Stack gap="md" data-testid="client-contracts">
      {canSell ? (
        <Group justify="flex-end">
          <Button onClick={() => setSelling(true)} data-testid="client-contract-sell">
            {t('client.sell')}
          </Button>
        </Group>
      ) : null}
      {items.length === 0 ? (
        <Empty text={t('client.none')} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {items.map((c) => (
            <ClientContractCard key={c.id} contract={c} onOpen={() => setOpen(c.id)} />
          ))}
        </SimpleGrid>
      )}
      {selling ? (
        <SellModal
          clientId={clientId}
          onClose={() => setSelling(false)}
          onSold={(id) => {
            setSelling(false);
            setOpen(id);
          }}
        />
      ) : null}
      <ContractDrawer id={open} canEdit={profile.abilities.canEdit} onClose={() => setOpen(null)} />
    </Stack>
  );
}

function StatusBadge({ status }: { status: ClientContractView['status'] }) {
  const { t } = useTranslation('contracts');
  return (
    <Badge color={CLIENT_CONTRACT_STATUS_COLORS[status]} variant="light" data-testid="client-contract-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

function nextInstalment(c: ClientContractView): InstalmentView | undefined {
  return c.instalments.find((i) => i.status === 'scheduled' || i.status === 'due');
}

function ClientContractCard({ contract, onOpen }: { contract: ClientContractView; onOpen?(): void }) {
  const { t, i18n } = useTranslation('contracts');
  const name = useLocaleName();
  const day = (d: string) => formatDay(d, i18n.language);
  const next = nextInstalment(contract);
  const suspension = contract.suspensions.find((s) => s.endsOn === null);
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      onClick={onOpen}
      style={onOpen ? { cursor: 'pointer' } : undefined}
      data-testid="client-contract-card"
      data-name={name(contract.name)}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name(contract.name)}
          </Text>
          <StatusBadge status={contract.status} />
        </Group>
        <Text size="sm" fw={500}>
          {pricePerPeriod(t, contract, i18n.language)}
        </Text>
        <Text size="xs" c="dimmed">
          {durationLabel(t, contract)} · {noticeLabel(t, contract)}
        </Text>
        {suspension ? (
          <Text size="xs" c="yellow.8" fw={500} data-testid="client-contract-suspended-from">
            {t('client.suspendedSince', { from: day(suspension.startsOn) })}
          </Text>
        ) : null}
        <SimpleGrid cols={2} spacing={4}>
          <Text size="xs" c="dimmed">
            {t('client.from')}
          </Text>
          <Text size="xs">{day(contract.entitledFrom)}</Text>
          <Text size="xs" c="dimmed">
            {t('client.until')}
          </Text>
          <Text size="xs">{contract.endsOn ? day(contract.endsOn) : t('client.untilTerminated')}</Text>
          {next ? (
            <>
              <Text size="xs" c="dimmed">
                {t('client.nextInstalment')}
              </Text>
              <Text size="xs" data-testid="client-contract-next">
                {day(next.dueOn)} · {price(next.amount, contract.currency, i18n.language)}
              </Text>
            </>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('client.outstanding')}
          </Text>
          <Text size="xs" data-testid="client-contract-outstanding">
            {price(contract.outstanding, contract.currency, i18n.language)}
          </Text>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

function SellModal({
  clientId,
  onClose,
  onSold,
}: {
  clientId: string;
  onClose(): void;
  onSold(id: string): void;
}) {
  const { t, i18n } = useTranslation('contracts');
  const api = useApiClient();
  const studio = useStudio();
  const phone = usePhone();
  const name = useLocaleName();
  const invalidate = useInvalidateContracts();
  const contracts = useContracts('exclude', 'desk');
  const fields = useEditorForm(() => ({ contractId: null as string | null, note: '' }));
  const { contractId, note } = fields.values;
  const form = useContractSubmit(['contractId', 'note']);
  const chosen = contracts.data?.items.find((c) => c.id === contractId);
  const items = contracts.data?.items.filter((c) => c.sellAtDesk) ?? [];
  return (
    <Modal opened onClose={onClose} title={t('client.sellTitle')} fullScreen={phone} centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void form
            .run(() =>
              contractCalls.sell(api, studio.uuid, clientId, {
                contractId: contractId ?? '',
                ...(note.trim() ? { note: note.trim() } : {}),
              }),
            )
            .then((sold) => {
              if (!sold) return;
              void invalidate();
              onSold(sold.id);
            });
        }}
        data-testid="client-contract-sell-form"
      >
        <Stack gap="sm">
          <FormErrorList errors={form.formErrors} />
          {contracts.error ? (
            <LoadError error={contracts.error} onRetry={() => void contracts.refetch()} />
          ) : contracts.isPending ? (
            <Loading />
          ) : items.length === 0 ? (
            <Text c="dimmed">{t('client.nothingToSell')}</Text>
          ) : (
            <Select
              label={t('client.contract')}
              placeholder={t('client.chooseContract')}
              data={items.map((c) => ({
                value: c.id,
                label: `${name(c.name)} — ${pricePerPeriod(t, c, i18n.language)}`,
              }))}
              value={contractId}
              onChange={(v) => fields.set('contractId', v)}
              error={form.fieldErrors.contractId}
              comboboxProps={{ withinPortal: true }}
              data-testid="client-contract-choose"
            />
          )}
          {chosen ? (
            <Paper withBorder p="xs" radius="sm" bg="gray.0">
              <Text size="sm">
                {durationLabel(t, chosen)} · {noticeLabel(t, chosen)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('client.sellHint')}
              </Text>
            </Paper>
          ) : null}
          <TextInput
            label={t('client.note')}
            value={note}
            onChange={(e) => fields.set('note', e.currentTarget.value)}
            error={form.fieldErrors.note}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('client.cancel')}
            </Button>
            <SubmitButton state={form.state} disabled={!contractId} data-testid="client-contract-sell-submit">
              {t('client.sellSubmit')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function eventText(
  t: (k: string, o?: Record<string, unknown>) => string,
  e: ClientContractEventView,
  language: string,
  currency: string,
): string {
  const p = e.payload;
  const day = (v: unknown) => (typeof v === 'string' ? formatDay(v, language) : '');
  switch (e.kind) {
    case 'terminated':
      return t('client.event.terminated', { endsOn: day(p.endsOn) });
    case 'suspended':
      return t('client.event.suspended', { startsOn: day(p.startsOn) });
    case 'resumed':
      return t('client.event.resumed', { on: day(p.suspensionEndsOn ?? p.on) });
    case 'instalmentOrdered':
      return t('client.event.instalmentOrdered', { amount: price(Number(p.amount), currency, language) });
    case 'scheduleExtended':
      return t('client.event.scheduleExtended', { count: Number(p.periods) });
    default:
      return t('client.event.sold');
  }
}

function instalmentLabel(t: (k: string, o?: Record<string, unknown>) => string, i: InstalmentView): string {
  if (i.kind === 'period') return t('instalment.kind.period', { number: (i.periodIndex ?? 0) + 1 });
  return t(`instalment.kind.${i.kind}`);
}

function ContractDrawer({ id, canEdit, onClose }: { id: string | null; canEdit: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation('contracts');
  const phone = usePhone();
  const studio = useStudio();
  const name = useLocaleName();
  const detail = useClientContractDetail(id);
  const [action, setAction] = useState<Action | null>(null);
  const data = detail.data;
  const c = data?.clientContract;
  const day = (d: string) => formatDay(d, i18n.language);
  return (
    <Drawer
      opened={id !== null}
      onClose={() => {
        setAction(null);
        onClose();
      }}
      position="right"
      size={phone ? '100%' : 'xl'}
      title={c ? name(c.name) : t('client.tab')}
      closeButtonProps={{ 'aria-label': t('client.close') }}
    >
      {detail.error ? (
        <LoadError error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !data || !c ? (
        <Loading />
      ) : (
        <Stack gap="md" data-testid="client-contract-detail">
          <ClientContractCard contract={c} />
          <Text size="xs" c="dimmed">
            {t('client.soldAt')}: {formatDateTime(c.soldAt, i18n.language, studio.timeZone)}{' '}
            {t(`client.channel.${c.channel}`)}
            {c.terminationRequestedOn
              ? ` · ${t('client.terminationRequested', { date: day(c.terminationRequestedOn) })}`
              : ''}
          </Text>
          {canEdit && (c.canSuspend || c.canResume || c.canTerminate) ? (
            <Group gap="xs" data-testid="client-contract-actions">
              {c.canSuspend ? (
                <Button
                  variant="default"
                  onClick={() => setAction('suspend')}
                  data-testid="client-contract-suspend"
                >
                  {t('client.suspend')}
                </Button>
              ) : null}
              {c.canResume ? (
                <Button
                  variant="default"
                  onClick={() => setAction('resume')}
                  data-testid="client-contract-resume"
                >
                  {t('client.resume')}
                </Button>
              ) : null}
              {c.canTerminate ? (
                <Button
                  variant="light"
                  color="red"
                  onClick={() => setAction('terminate')}
                  data-testid="client-contract-terminate"
                >
                  {t('client.terminate')}
                </Button>
              ) : null}
            </Group>
          ) : null}
          {action ? (
            <ActionForm key={action} action={action} contract={c} onDone={() => setAction(null)} />
          ) : null}

          {c.suspensions.length > 0 ? (
            <Stack gap={4}>
              <Title order={3} size="h5">
                {t('client.suspensions')}
              </Title>
              {c.suspensions.map((s) => (
                <Text size="sm" key={s.startsOn} data-testid="client-contract-suspension">
                  {s.endsOn
                    ? t('client.suspendedRange', { from: day(s.startsOn), to: day(s.endsOn) })
                    : t('client.suspendedFrom', { from: day(s.startsOn) })}
                </Text>
              ))}
            </Stack>
          ) : null}

          <Stack gap={4}>
            <Title order={3} size="h5">
              {t('client.schedule')}
            </Title>
            <Table.ScrollContainer minWidth={phone ? 320 : 520}>
              <Table verticalSpacing={4} striped data-testid="client-contract-schedule">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('client.dueOn')}</Table.Th>
                    <Table.Th>{t('client.what')}</Table.Th>
                    <Table.Th ta="right">{t('client.amount')}</Table.Th>
                    {phone ? null : <Table.Th>{t('client.statusColumn')}</Table.Th>}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {c.instalments.map((i) => {
                    // On a phone the status sits under the label (a fourth column would truncate it).
                    const status = (
                      <Badge size="sm" variant="light" color={INSTALMENT_STATUS_COLORS[i.status]}>
                        {t(`instalment.status.${i.status}`)}
                      </Badge>
                    );
                    return (
                      <Table.Tr key={i.id} data-testid="instalment-row" data-status={i.status}>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{day(i.dueOn)}</Table.Td>
                        <Table.Td>
                          <Text size="sm">{instalmentLabel(t, i)}</Text>
                          {i.periodStartsOn && i.periodEndsOn && !phone ? (
                            <Text size="xs" c="dimmed">
                              {day(i.periodStartsOn)} – {day(i.periodEndsOn)}
                            </Text>
                          ) : null}
                          {phone ? status : null}
                        </Table.Td>
                        <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                          {price(i.amount, c.currency, i18n.language)}
                        </Table.Td>
                        {phone ? null : <Table.Td>{status}</Table.Td>}
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>

          <Stack gap={4}>
            <Title order={3} size="h5">
              {t('client.history')}
            </Title>
            {data.events.map((e) => (
              <Group key={e.id} gap="xs" wrap="nowrap" align="flex-start" data-testid="client-contract-event">
                <Text size="xs" c="dimmed" w={phone ? 110 : 150} style={{ flexShrink: 0 }}>
                  {formatDateTime(e.createdAt, i18n.language, studio.timeZone)}
                </Text>
                <Stack gap={0}>
                  <Text size="sm">{eventText(t, e, i18n.language, c.currency)}</Text>
                  <Text size="xs" c="dimmed">
                    {e.actor ? `${e.actor.firstName} ${e.actor.lastName}` : t(`client.via.${e.via}`)}
                    {e.note ? ` · ${e.note}` : ''}
                  </Text>
                </Stack>
              </Group>
            ))}
          </Stack>
        </Stack>
      )}
    </Drawer>
  );
}

function ActionForm({
  action,
  contract,
  onDone,
}: {
  action: Action;
  contract: ClientContractView;
  onDone(): void;
}) {
  const { t } = useTranslation('contracts');
  const api = useApiClient();
  const studio = useStudio();
  const invalidate = useInvalidateContracts();
  const canShortenNotice = useCan('settings.edit');
  const today = localDateOf(new Date(), studio.timeZone);
  const dateField = action === 'suspend' ? 'from' : action === 'resume' ? 'on' : 'requestedOn';
  const fields = useEditorForm(() => ({ date: today, notice: String(contract.noticePeriods), note: '' }));
  const { date, notice, note } = fields.values;
  const form = useContractSubmit([dateField, 'noticePeriods', 'note']);
  const body = (): ClientContractPatch => {
    const extra = note.trim() ? { note: note.trim() } : {};
    if (action === 'suspend') return { action, from: date, ...extra };
    if (action === 'resume') return { action, on: date, ...extra };
    const noticePeriods = Number(notice);
    return {
      action,
      requestedOn: date,
      ...(canShortenNotice && notice.trim() !== '' && noticePeriods !== contract.noticePeriods
        ? { noticePeriods }
        : {}),
      ...extra,
    };
  };
  return (
    <Paper withBorder p="sm" radius="md" data-testid={`client-contract-${action}-form`}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void form
            .run(() => contractCalls.change(api, studio.uuid, contract.id, body()))
            .then((saved) => {
              if (!saved) return;
              void invalidate();
              onDone();
            });
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t(`client.${action}Title`)}
          </Title>
          <Text size="xs" c="dimmed">
            {t(`client.${action}Hint`)}
          </Text>
          <FormErrorList errors={form.formErrors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              type="date"
              label={t(
                action === 'suspend'
                  ? 'client.suspendFrom'
                  : action === 'resume'
                    ? 'client.resumeOn'
                    : 'client.requestedOn',
              )}
              value={date}
              onChange={(e) => fields.set('date', e.currentTarget.value)}
              error={form.fieldErrors[dateField]}
              data-testid="client-contract-action-date"
            />
            {action === 'terminate' ? (
              <TextInput
                label={t('client.noticePeriods')}
                description={
                  canShortenNotice
                    ? t('client.noticeDefault', { count: contract.noticePeriods })
                    : t('client.noticeOnlyManagers')
                }
                value={notice}
                onChange={(e) => fields.set('notice', e.currentTarget.value)}
                error={form.fieldErrors.noticePeriods}
                disabled={!canShortenNotice}
                inputMode="numeric"
              />
            ) : null}
          </SimpleGrid>
          <TextInput
            label={t('client.note')}
            value={note}
            onChange={(e) => fields.set('note', e.currentTarget.value)}
            error={form.fieldErrors.note}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('client.cancel')}
            </Button>
            <SubmitButton
              state={form.state}
              color={action === 'terminate' ? 'red' : undefined}
              data-testid="client-contract-action-submit"
            >
              {t('client.confirm')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
