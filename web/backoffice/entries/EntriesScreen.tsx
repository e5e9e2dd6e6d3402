import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EntryEnrollmentInit, EntryService } from '../../../shared/contracts/api/entries';
import { resolveLocaleText } from '../../../shared/domain/locale-text';
import { PaymentMethod } from '../../../shared/enums';
import { toFormErrors } from '../../lib/form-errors';
import { formatMoney } from '../../lib/money';
import { useBackoffice } from '../backoffice.api';
import { ListEmpty, ListLoadError, ListLoading, TabbedSection } from '../list-frame';
import { useClientSearch } from '../schedule/event-detail/event-bookings.api';
import {
  useEnroll,
  useEnrollmentInit,
  useEntryServiceInit,
  useEntryServices,
  useSaveEntryService,
} from './entries.api';
import { EntryServiceForm } from './EntryServiceForm';

type Tab = 'desk' | 'services';
const time = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * Entry services (issue 22): the desk lets a client in (search, see which services they may enter
 * now and with which pass, or why not), and the services with their limits and who is inside now.
 */
export function EntriesScreen() {
  const { t } = useTranslation('entries');
  const { member } = useBackoffice();
  const [tab, setTab] = useState<Tab>('desk');
  return (
    <TabbedSection<Tab>
      title={t('title')}
      tab={tab}
      onChange={setTab}
      tabs={[
        {
          value: 'desk',
          label: t('tabs.desk'),
          testId: 'entries-tab-desk',
          hidden: !member.abilities.includes('schedule.checkIn'),
        },
        { value: 'services', label: t('tabs.services'), testId: 'entries-tab-services' },
      ]}
    >
      {tab === 'desk' ? <DeskPanel /> : <ServicesPanel />}
    </TabbedSection>
  );
}

function useName() {
  const { i18n } = useTranslation();
  return (text: Record<string, { value: string } | undefined>) =>
    resolveLocaleText(text, i18n.language, 'pl');
}

function ServicesPanel() {
  const { t } = useTranslation('entries');
  const name = useName();
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const services = useEntryServices();
  const init = useEntryServiceInit();
  const save = useSaveEntryService();
  const [editing, setEditing] = useState<EntryService | 'new' | null>(null);
  if (services.isError || init.isError)
    return (
      <ListLoadError
        error={services.error ?? init.error}
        title={t('loadError')}
        retry={t('retry')}
        testId="entry-services-error"
        onRetry={() => void Promise.all([services.refetch(), init.refetch()])}
      />
    );
  if (!services.data || !init.data) return <ListLoading />;
  return (
    <Stack gap="md">
      {canEdit && !editing && (
        <Group>
          <Button onClick={() => setEditing('new')} data-testid="entry-service-add">
            {t('add')}
          </Button>
        </Group>
      )}
      {editing && (
        <EntryServiceForm
          service={editing === 'new' ? null : editing}
          init={init.data}
          onDone={() => setEditing(null)}
        />
      )}
      {services.data.items.length === 0 && <ListEmpty text={t('empty')} testId="entry-services-empty" />}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {services.data.items.map((s) => (
          <Card
            key={s.id}
            withBorder
            radius="md"
            data-testid="entry-service-card"
            opacity={s.archived ? 0.6 : 1}
          >
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={2}>
                <Text fw={600}>{name(s.name)}</Text>
                <Text size="sm" c="dimmed">
                  {s.locationName ?? t('anyLocation')}
                </Text>
              </Stack>
              {s.archived ? (
                <Badge color="gray">{t('archived')}</Badge>
              ) : (
                <Badge color={s.openNow ? 'green' : 'gray'}>
                  {s.openNow ? t('openNow') : t('closedNow')}
                </Badge>
              )}
            </Group>
            <Stack gap={2} mt="sm">
              <Text size="sm" data-testid="entry-service-inside">
                {s.capacity === null
                  ? t('insideNoLimit', { count: s.insideNow })
                  : t('inside', { count: s.insideNow, capacity: s.capacity })}
              </Text>
              <Text size="sm">{t('entriesToday', { count: s.entriesToday })}</Text>
              <Text size="sm" c="dimmed">
                {s.maxEntriesPerDay === null
                  ? t('perDayNoLimit')
                  : t('perDay', { count: s.maxEntriesPerDay })}{' '}
                · {t('stay', { minutes: s.stayMinutes })}
              </Text>
              <Text size="sm" c="dimmed">
                {s.openingHours.length === 0
                  ? t('alwaysOpen')
                  : s.openingHours
                      .map(
                        (w) =>
                          `${w.weekdays.map((d) => t(`weekdays.${d}`)).join(' ')} ${time(w.fromMinutes)}–${time(w.toMinutes)}`,
                      )
                      .join('; ')}
              </Text>
            </Stack>
            {canEdit && (
              <Group mt="sm" gap="xs">
                <Button size="xs" variant="light" onClick={() => setEditing(s)}>
                  {t('edit')}
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="gray"
                  onClick={() => void save(s.id, { archived: !s.archived })}
                >
                  {s.archived ? t('restore') : t('archive')}
                </Button>
              </Group>
            )}
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function DeskPanel() {
  const { t } = useTranslation('entries');
  const [client, setClient] = useState<{ id: string; name: string } | null>(null);
  return (
    <Stack gap="md" maw={720}>
      {client ? (
        <Group justify="space-between">
          <Text fw={600} data-testid="entry-desk-client">
            {client.name}
          </Text>
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setClient(null)}
            data-testid="entry-desk-other-client"
          >
            {t('desk.otherClient')}
          </Button>
        </Group>
      ) : (
        <ClientSearch onPick={setClient} />
      )}
      {client && <ClientEntryOptions clientId={client.id} />}
    </Stack>
  );
}

function ClientSearch({ onPick }: { onPick(client: { id: string; name: string }): void }) {
  const { t } = useTranslation('entries');
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text, 250);
  const search = useClientSearch(q);
  const items = q.trim().length >= 2 ? (search.data?.items ?? []) : [];
  return (
    <Stack gap={6}>
      <TextInput
        label={t('desk.search')}
        placeholder={t('desk.searchPlaceholder')}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        rightSection={search.isFetching ? <Loader size="xs" /> : null}
        data-testid="entry-client-search"
      />
      {q.trim().length >= 2 && !search.isFetching && items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('desk.noClients')}
        </Text>
      )}
      {items.map((c) => (
        <UnstyledButton
          key={c.id}
          onClick={() => onPick({ id: c.id, name: `${c.firstName} ${c.lastName}`.trim() })}
          data-testid="entry-client-result"
        >
          <Paper withBorder radius="sm" px="sm" py={6}>
            <Text size="sm" fw={500}>
              {c.firstName} {c.lastName}
            </Text>
            <Text size="xs" c="dimmed">
              {[c.emailAddress, c.phone].filter(Boolean).join(' · ')}
            </Text>
          </Paper>
        </UnstyledButton>
      ))}
    </Stack>
  );
}

function ClientEntryOptions({ clientId }: { clientId: string }) {
  const { t } = useTranslation('entries');
  const name = useName();
  const init = useEnrollmentInit(clientId);
  const enroll = useEnroll();
  const [done, setDone] = useState<string | null>(null);
  const [method, setMethod] = useState<number>(PaymentMethod.cash);
  const error = enroll.error ? Object.values(toFormErrors(enroll.error, t)).map(String)[0] : null;
  if (init.isError)
    return (
      <ListLoadError
        error={init.error}
        title={t('loadError')}
        retry={t('retry')}
        testId="entry-desk-error-load"
        onRetry={() => void init.refetch()}
      />
    );
  if (!init.data) return <ListLoading />;
  if (init.data.services.length === 0) return <ListEmpty text={t('empty')} />;
  const go = (service: EntryEnrollmentInit['services'][number], withoutPass: boolean, sell = false) => {
    setDone(null);
    enroll.mutate(
      { clientId, entryServiceId: service.id, withoutPass, ...(sell ? { sale: { method } } : {}) },
      {
        onSuccess: () =>
          setDone(
            sell
              ? t('desk.sold', { service: name(service.name), price: formatMoney(service.price ?? 0, 'PLN') })
              : t('desk.entered', { service: name(service.name) }),
          ),
      },
    );
  };
  return (
    <Stack gap="sm">
      {done && (
        <Alert color="green" data-testid="entry-desk-done">
          {done}
        </Alert>
      )}
      {error && (
        <Alert color="red" data-testid="entry-desk-error">
          {error}
        </Alert>
      )}
      {init.data.services.map((s) => {
        const limit = s.refusal === 'closed' || s.refusal === 'dailyLimitReached' || s.refusal === 'full';
        return (
          <Paper key={s.id} withBorder radius="md" p="sm" data-testid="entry-desk-service">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text fw={600}>{name(s.name)}</Text>
                <Text size="sm" c="dimmed">
                  {s.capacity === null
                    ? t('insideNoLimit', { count: s.insideNow })
                    : t('inside', { count: s.insideNow, capacity: s.capacity })}
                  {' · '}
                  {s.maxEntriesPerDay === null
                    ? t('desk.todayNoLimit', { count: s.clientEntriesToday })
                    : t('desk.today', { count: s.clientEntriesToday, max: s.maxEntriesPerDay })}
                </Text>
                <Text size="sm" c={s.refusal ? 'red' : undefined}>
                  {s.refusal
                    ? t(`refusals.${s.refusal}`, { defaultValue: t('refusals.other') })
                    : t('desk.withPass', { pass: name(s.pass!.name) })}
                </Text>
              </Stack>
              <Group gap="xs">
                {!s.refusal && (
                  <Button
                    onClick={() => go(s, false)}
                    loading={enroll.isPending}
                    data-testid="entry-desk-enter"
                  >
                    {t('desk.enter')}
                  </Button>
                )}
                {s.refusal && !limit && (
                  <Button
                    variant="light"
                    onClick={() => go(s, true)}
                    loading={enroll.isPending}
                    data-testid="entry-desk-enter-without-pass"
                  >
                    {t('desk.enterWithoutPass')}
                  </Button>
                )}
                {s.price !== null && !limit && (
                  <Group gap={4} wrap="wrap">
                    <NativeSelect
                      aria-label={t('desk.method')}
                      value={String(method)}
                      onChange={(e) => setMethod(Number(e.currentTarget.value))}
                      data={[
                        { value: String(PaymentMethod.cash), label: t('desk.methods.cash') },
                        { value: String(PaymentMethod.terminal), label: t('desk.methods.terminal') },
                        { value: String(PaymentMethod.wallet), label: t('desk.methods.wallet') },
                      ]}
                      data-testid="entry-desk-sell-method"
                    />
                    <Button
                      variant={s.refusal ? 'filled' : 'default'}
                      onClick={() => go(s, true, true)}
                      loading={enroll.isPending}
                      data-testid="entry-desk-sell"
                    >
                      {t('desk.sell', { price: formatMoney(s.price, 'PLN') })}
                    </Button>
                  </Group>
                )}
              </Group>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
