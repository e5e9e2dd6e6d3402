import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ClientPricingOptionChangeView,
  ClientPricingOptionView,
} from '../../../shared/contracts/api/catalog';
import { useApiClient } from '../../lib/app-context';
import { useOffline } from '../../lib/connectivity';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useEditorForm } from '../../ui/use-editor-form';
import {
  catalogCalls,
  catalogKeys,
  formatDateTime,
  formatDay,
  price,
  problemsError,
  useCan,
  useCatalogSubmit,
  useClientPasses,
  useLocaleName,
  usePassDetail,
  useStudio,
} from '../catalog/catalog.api';
import { Empty, LoadError, Loading, usePhone } from '../catalog/CatalogScreen';
import { passChangePayload, type PassChangeFormValues } from '../catalog/pricing-option-form';
import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { EMPTY_CHANGE, PassChangeFields } from './PassChangeForm';
import { PassCard } from '../../features/passes/PassCard';
import { SellPassForm } from './SellPassForm';
import { ProvisionalBadge } from '../sync/ProvisionalBadge';

/**
 * The client profile's Passes tab: the client's passes (and passes shared with them) with status,
 * entries used and left, validity; a pass opens a drawer with its visits, the change history (the
 * audit) and the staff actions: extend, freeze, change entries (with a reason), share.
 */
export function PassesTab({ clientId, profile }: ClientProfileTabProps) {
  const { t } = useTranslation('catalog');
  const passes = useClientPasses(clientId);
  const name = useLocaleName();
  const [open, setOpen] = useState<string | null>(null);
  // The desk station without the cloud answers the list from its copy (desktop/main/station/
  // offline-passes.ts); selling here and a pass's details need the cloud (the POS sells offline).
  const offline = useOffline();
  const canSell = useCan('sales.sell') && !offline;
  const [selling, setSelling] = useState(false);
  const refreshList = useRefreshPass(clientId, '');
  if (passes.error) return <LoadError error={passes.error} onRetry={() => void passes.refetch()} />;
  if (passes.isPending) return <Loading />;
  const { own, shared } = passes.data;
  return (
    <Stack gap="md" data-testid="client-passes">
      {canSell ? (
        selling ? (
          <SellPassForm
            clientId={clientId}
            onSold={() => {
              setSelling(false);
              void refreshList();
            }}
          />
        ) : (
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setSelling(true)} data-testid="sell-pass-open">
              {t('sell.open')}
            </Button>
          </Group>
        )
      ) : null}
      {offline ? (
        <Alert color="gray" variant="light" data-testid="client-passes-offline">
          {t('sync:offlinePasses.note')}
        </Alert>
      ) : null}
      {own.length === 0 ? (
        <Empty text={t('passes.none')} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {own.map((p) => (
            <PassCard
              key={p.id}
              pass={p}
              name={name(p.name)}
              onOpen={offline ? undefined : () => setOpen(p.id)}
              extra={
                p.provisional ? (
                  <Group>
                    <ProvisionalBadge provisional />
                  </Group>
                ) : null
              }
            />
          ))}
        </SimpleGrid>
      )}
      {shared.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t('passes.sharedWithClient')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {shared.map((p) => (
              <PassCard
                key={p.id}
                pass={p}
                name={name(p.name)}
                onOpen={offline ? undefined : () => setOpen(p.id)}
              />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
      <PassDrawer
        id={open}
        clientId={clientId}
        canEdit={profile.abilities.canEdit}
        onClose={() => setOpen(null)}
      />
    </Stack>
  );
}

function changeText(
  t: (k: string, o?: Record<string, unknown>) => string,
  c: ClientPricingOptionChangeView,
  language: string,
): string {
  if (c.kind === 'extend') return t('change.row.extend', { count: Number(c.payload.days) });
  if (c.kind === 'freeze')
    return t('change.row.freeze', {
      from: formatDay(String(c.payload.from), language),
      to: formatDay(String(c.payload.to), language),
    });
  const delta = Number(c.payload.delta);
  return t('change.row.entries', { delta: delta > 0 ? `+${delta}` : String(delta) });
}

function PassDrawer({
  id,
  clientId,
  canEdit,
  onClose,
}: {
  id: string | null;
  clientId: string;
  canEdit: boolean;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation('catalog');
  const phone = usePhone();
  const studio = useStudio();
  const detail = usePassDetail(id);
  const name = useLocaleName();
  const data = detail.data;
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={data ? name(data.clientPricingOption.name) : t('passes.title')}
    >
      {detail.error ? (
        <LoadError error={detail.error} onRetry={() => void detail.refetch()} />
      ) : !data ? (
        <Loading />
      ) : (
        <Stack gap="md" data-testid="pass-detail">
          <PassCard pass={data.clientPricingOption} name={name(data.clientPricingOption.name)} />
          <Paper withBorder p="sm" radius="md">
            <SimpleGrid cols={2} spacing="xs">
              <Text size="sm" c="dimmed">
                {t('passes.soldAt')}
              </Text>
              <Text size="sm">
                {formatDateTime(data.clientPricingOption.soldAt, i18n.language, studio.timeZone)}
              </Text>
              <Text size="sm" c="dimmed">
                {t('passes.pricePaid')}
              </Text>
              <Text size="sm">
                {data.clientPricingOption.pricePaid === null
                  ? '—'
                  : price(data.clientPricingOption.pricePaid, studio.currency, i18n.language)}
              </Text>
              <Text size="sm" c="dimmed">
                {t('passes.activatedAt')}
              </Text>
              <Text size="sm">
                {data.clientPricingOption.activatedAt
                  ? formatDateTime(data.clientPricingOption.activatedAt, i18n.language, studio.timeZone)
                  : t('passes.notYet')}
              </Text>
              {data.clientPricingOption.freezes.length > 0 ? (
                <>
                  <Text size="sm" c="dimmed">
                    {t('passes.freezes')}
                  </Text>
                  <Text size="sm">
                    {data.clientPricingOption.freezes
                      .map((f) => `${formatDay(f.from, i18n.language)} – ${formatDay(f.to, i18n.language)}`)
                      .join(', ')}
                  </Text>
                </>
              ) : null}
            </SimpleGrid>
          </Paper>

          {canEdit && data.canEdit ? (
            <ChangeForm pass={data.clientPricingOption} clientId={clientId} />
          ) : null}

          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('passes.history')}
            </Title>
            {data.changes.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('passes.noChanges')}
              </Text>
            ) : (
              <Stack gap={6} data-testid="pass-audit">
                {data.changes.map((c) => (
                  <Paper key={c.id} withBorder p="xs" radius="sm" data-testid="audit-row">
                    <Group justify="space-between" wrap="nowrap" align="flex-start">
                      <Stack gap={0} miw={0}>
                        <Text size="sm" fw={500}>
                          {changeText(t, c, i18n.language)}
                        </Text>
                        {c.note ? (
                          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                            {c.note}
                          </Text>
                        ) : null}
                      </Stack>
                      <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
                        <Text size="xs" c="dimmed">
                          {formatDateTime(c.createdAt, i18n.language, studio.timeZone)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {c.actor ? `${c.actor.firstName} ${c.actor.lastName}` : '—'}
                          {c.bulk ? ` · ${t('passes.bulk')}` : ''}
                        </Text>
                      </Stack>
                    </Group>
                  </Paper>
                ))}
              </Stack>
            )}
          </Stack>

          <Stack gap="xs">
            <Title order={3} size="h5">
              {t('passes.visits')}
            </Title>
            {data.visits.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('passes.noVisits')}
              </Text>
            ) : (
              <Table verticalSpacing={4} data-testid="pass-visits">
                <Table.Tbody>
                  {data.visits.map((v) => (
                    <Table.Tr key={v.id}>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        {formatDateTime(v.startsAt, i18n.language, studio.timeZone)}
                      </Table.Td>
                      <Table.Td>{v.name ?? '—'}</Table.Td>
                      <Table.Td>
                        <Badge size="xs" variant="light" color={v.usesEntry ? 'blue' : 'gray'}>
                          {t(`enums:clientVisitStatus.${v.status}`)}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>

          <ShareSection
            pass={data.clientPricingOption}
            candidates={data.shareCandidates}
            canEdit={canEdit && data.canEdit}
            clientId={clientId}
          />
        </Stack>
      )}
    </Drawer>
  );
}

function useRefreshPass(clientId: string, passId: string) {
  const queryClient = useQueryClient();
  const studio = useStudio().uuid;
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: catalogKeys.pass(studio, passId) }),
      queryClient.invalidateQueries({ queryKey: catalogKeys.clientPasses(studio, clientId) }),
      // The profile's own "valid passes" summary.
      queryClient.invalidateQueries({ queryKey: ['clients', studio] }),
    ]);
}

function ChangeForm({ pass, clientId }: { pass: ClientPricingOptionView; clientId: string }) {
  const { t } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio().uuid;
  const refresh = useRefreshPass(clientId, pass.id);
  const fields = useEditorForm<PassChangeFormValues>(() => EMPTY_CHANGE);
  const { values } = fields;
  const form = useCatalogSubmit(['extendDays', 'freeze.from', 'freeze.to', 'entriesDelta', 'note']);
  return (
    <Paper withBorder p="sm" radius="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void form
            .run(async () => {
              const mapped = passChangePayload(values);
              if (!mapped.ok) throw problemsError(t, mapped.fields);
              return catalogCalls.changePass(api, studio, pass.id, mapped.payload);
            })
            .then((saved) => {
              if (!saved) return;
              fields.patch(EMPTY_CHANGE);
              void refresh();
            });
        }}
        noValidate
        data-testid="pass-change-form"
      >
        <Stack gap="sm">
          <Text fw={600}>{t('change.title')}</Text>
          <FormErrorList errors={form.formErrors} />
          <PassChangeFields
            values={values}
            onChange={fields.patch}
            errors={form.fieldErrors}
            unlimited={pass.entriesTotal === null}
          />
          <Group justify="flex-end">
            <SubmitButton state={form.state} data-testid="pass-change-save">
              {t('change.save')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function ShareSection({
  pass,
  candidates,
  canEdit,
  clientId,
}: {
  pass: ClientPricingOptionView;
  candidates: Array<{ userId: string; firstName: string; lastName: string }>;
  canEdit: boolean;
  clientId: string;
}) {
  const { t } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudio().uuid;
  const refresh = useRefreshPass(clientId, pass.id);
  const shareForm = useEditorForm(() => ({ userId: null as string | null }));
  const { userId } = shareForm.values;
  const share = useCatalogSubmit(['userId']);
  const [withdrawing, setWithdrawing] = useState<string | null>(null);
  const sharedIds = new Set(pass.sharedWith.map((s) => s.userId));
  const available = candidates.filter((c) => !sharedIds.has(c.userId));
  const isOwnPass = pass.clientId === clientId;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('share.title')}
      </Title>
      {pass.sharedWith.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('share.none')}
        </Text>
      ) : (
        <Stack gap={4} data-testid="pass-shares">
          {pass.sharedWith.map((s) => (
            <Group key={s.userId} justify="space-between">
              <Text size="sm">
                {s.firstName} {s.lastName}
              </Text>
              {canEdit && isOwnPass ? (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  loading={withdrawing === s.userId}
                  onClick={() => {
                    setWithdrawing(s.userId);
                    void catalogCalls
                      .sharePass(api, studio, pass.id, s.userId, false)
                      .then(() => refresh())
                      .finally(() => setWithdrawing(null));
                  }}
                >
                  {t('share.withdraw')}
                </Button>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      {canEdit && isOwnPass ? (
        candidates.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('share.noLinked')}
          </Text>
        ) : available.length > 0 ? (
          <Stack gap="xs">
            <FormErrorList errors={share.formErrors} />
            <Group align="flex-end" gap="xs" wrap="nowrap">
              <Select
                label={t('share.with')}
                data={available.map((c) => ({ value: c.userId, label: `${c.firstName} ${c.lastName}` }))}
                value={userId}
                onChange={(v) => shareForm.set('userId', v)}
                error={share.fieldErrors.userId}
                style={{ flex: 1 }}
                comboboxProps={{ withinPortal: true }}
                data-testid="share-user"
              />
              <SubmitButton
                type="button"
                variant="default"
                state={share.state}
                onClick={() =>
                  void share
                    .run(async () => {
                      if (!userId) throw problemsError(t, { userId: ['errors.required'] });
                      return catalogCalls.sharePass(api, studio, pass.id, userId, true);
                    })
                    .then((saved) => {
                      if (!saved) return;
                      shareForm.set('userId', null);
                      void refresh();
                    })
                }
                data-testid="share-save"
              >
                {t('share.share')}
              </SubmitButton>
            </Group>
          </Stack>
        ) : null
      ) : null}
    </Stack>
  );
}
