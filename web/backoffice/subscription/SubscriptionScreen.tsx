import {
  Alert,
  Badge,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Paper,
  Radio,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type {
  SubscriptionInit,
  SubscriptionLine,
  SubscriptionPeriodView,
} from '../../../shared/contracts/api/subscription';
import { SubscriptionApi } from '../../../shared/contracts/http/subscription';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { formatMoney } from '../../lib/money';
import { formatMonth } from '../../../shared/i18n/dates';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';

const keys = {
  init: (uuid: string) => ['subscription', 'init', uuid] as const,
  periods: (uuid: string, id: string) => ['subscription', 'periods', uuid, id] as const,
  status: (uuid: string, id: string) => ['subscription', 'status', uuid, id] as const,
  quote: (uuid: string, plan: string, addOns: string[]) =>
    ['subscription', 'quote', uuid, plan, addOns.join(',')] as const,
};

/** A count of credits with the language's digit grouping ("1,000" / "1 000"). */
const formatCount = (n: number, language: string) => new Intl.NumberFormat(language).format(n);

const localName = (name: { en: string; pl: string }, language: string) =>
  language === 'pl' ? name.pl : name.en;

function usePeriodLabel() {
  const { i18n } = useTranslation();
  return (period: string) => formatMonth(`${period}-01`, i18n.language);
}

/**
 * Settings → Subscription (issue 25): the studio's plan with the platform, its add-ons and credits
 * left, its billing periods with their status and the platform's invoices, and buying (a month of a
 * plan and/or add-ons) through the platform's payment provider.
 */
export function SubscriptionScreen() {
  const { t } = useTranslation('subscription');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canBuy = useBackoffice().member.abilities.includes('settings.edit');
  const returned = new URLSearchParams(useLocation().search).get('period');
  const init = useQuery({
    queryKey: keys.init(uuid),
    queryFn: ({ signal }) => api.call(SubscriptionApi.init, { params: { uuid }, signal }),
  });
  return (
    <SettingsLayout page="subscription">
      {init.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !init.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="lg">
          {returned ? <ReturnedNotice periodId={returned} /> : null}
          <Overview init={init.data} />
          {canBuy ? <BuyForm init={init.data} /> : null}
          {init.data.subscription ? (
            <Periods init={init.data} subscriptionId={init.data.subscription.id} />
          ) : null}
        </Stack>
      )}
    </SettingsLayout>
  );
}

function Overview({ init }: { init: SubscriptionInit }) {
  const { t, i18n } = useTranslation('subscription');
  const periodLabel = usePeriodLabel();
  const plan = init.plans.find((p) => p.code === init.subscription?.planCode);
  const color = { trial: 'gray', active: 'teal', expired: 'orange' }[init.status];
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
      <Paper withBorder p="md" radius="md" data-testid="subscription-plan">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {t('plan')}
        </Text>
        <Group gap="xs" mt={4}>
          <Text fw={700} size="lg">
            {plan ? localName(plan.name, i18n.language) : t('trialPlan')}
          </Text>
          <Badge color={color} variant="light" data-testid="subscription-status">
            {t(`status.${init.status}`)}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed" mt={4}>
          {init.paidThrough ? t('paidThrough', { period: periodLabel(init.paidThrough) }) : t('notPaidYet')}
        </Text>
        {init.premiumApps ? (
          <Badge mt="xs" variant="outline" data-testid="subscription-premium-apps">
            {t('premiumAppsOn')}
          </Badge>
        ) : null}
      </Paper>
      <CreditsCard
        title={t('smsCredits')}
        left={formatCount(init.credits.sms, i18n.language)}
        hint={t('smsHint')}
        testId="subscription-sms-credits"
      />
      <CreditsCard
        title={t('emailCredits')}
        left={formatCount(init.credits.email, i18n.language)}
        hint={t('emailHint')}
        testId="subscription-email-credits"
      />
    </SimpleGrid>
  );
}

/** What is left of one kind of credits (SMS, e-mail). */
function CreditsCard(props: { title: string; left: string; hint: string; testId: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {props.title}
      </Text>
      <Text fw={700} size="xl" mt={4} data-testid={props.testId}>
        {props.left}
      </Text>
      <Text size="sm" c="dimmed">
        {props.hint}
      </Text>
    </Paper>
  );
}

const newIdempotencyKey = () => `sub-${crypto.randomUUID()}`;

function BuyForm({ init }: { init: SubscriptionInit }) {
  const { t, i18n } = useTranslation('subscription');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const periodLabel = usePeriodLabel();
  const [plan, choosePlan] = useState<string>('');
  const [addOns, chooseAddOns] = useState<string[]>([]);
  // One Idempotency-Key per cart: a double click, or a retry after a lost answer, buys once; a
  // changed cart is another purchase and gets a new key.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const setPlan = (value: string) => {
    choosePlan(value);
    setIdempotencyKey(newIdempotencyKey());
  };
  const setAddOns = (update: (list: string[]) => string[]) => {
    chooseAddOns(update);
    setIdempotencyKey(newIdempotencyKey());
  };
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const empty = !plan && addOns.length === 0;
  const quote = useQuery({
    queryKey: keys.quote(uuid, plan, addOns),
    enabled: !empty,
    queryFn: ({ signal }) =>
      api.call(SubscriptionApi.cartPrepare, {
        params: { uuid },
        query: { ...(plan ? { plan } : {}), addOns: addOns.join(',') },
        signal,
      }),
  });
  const pay = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.call(SubscriptionApi.cartCheckout, {
        params: { uuid },
        body: { plan: plan || null, addOns },
        headers: { 'idempotency-key': idempotencyKey },
      });
      window.location.assign(result.redirectUrl);
    } catch (err) {
      setBusy(false);
      setError(
        err instanceof ApiError && err.key === 'subscription.paymentUnavailable'
          ? t('paymentUnavailable')
          : t('checkoutError'),
      );
    }
  };
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" data-testid="subscription-buy">
      <Stack gap="md">
        <Title order={2} size="h4">
          {init.status === 'trial' ? t('buyTitle') : t('renewTitle')}
        </Title>
        <Radio.Group value={plan} onChange={setPlan} label={t('choosePlan')}>
          <Stack gap="xs" mt="xs">
            <Radio value="" label={t('noPlan')} data-testid="subscription-plan-none" />
            {init.plans.map((p) => (
              <Radio
                key={p.code}
                value={p.code}
                data-testid={`subscription-plan-${p.code}`}
                label={`${localName(p.name, i18n.language)} — ${t('perMonth', {
                  price: formatMoney(p.price, init.currency),
                })}`}
                description={t('planIncludes', { email: p.includedEmail, sms: p.includedSms })}
              />
            ))}
          </Stack>
        </Radio.Group>
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            {t('addOns')}
          </Text>
          {init.addOns.map((a) => (
            <Checkbox
              key={a.code}
              data-testid={`subscription-addon-${a.code}`}
              checked={addOns.includes(a.code)}
              onChange={(e) => {
                // Read now: React runs the updater later, when the event's target is gone.
                const checked = e.currentTarget.checked;
                setAddOns((list) => (checked ? [...list, a.code] : list.filter((c) => c !== a.code)));
              }}
              label={`${localName(a.name, i18n.language)} — ${formatMoney(a.price, init.currency)}`}
              description={t(`addOnService.${a.service}`)}
            />
          ))}
        </Stack>
        {quote.data && !empty ? (
          <Paper bg="var(--mantine-color-gray-0)" p="sm" radius="sm" data-testid="subscription-quote">
            <Text size="sm">
              {quote.data.kind === 'renewal'
                ? t('quoteRenewal', { period: periodLabel(quote.data.period) })
                : t('quoteAddOns', { period: periodLabel(quote.data.period) })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('quoteTotals', {
                net: formatMoney(quote.data.net, quote.data.currency),
                vat: formatMoney(quote.data.vat, quote.data.currency),
              })}
            </Text>
            <Text fw={700} size="lg" data-testid="subscription-total">
              {formatMoney(quote.data.total, quote.data.currency)}
            </Text>
          </Paper>
        ) : null}
        {error ? <Alert color="red">{error}</Alert> : null}
        {!init.paymentProvider ? <Alert color="yellow">{t('paymentUnavailable')}</Alert> : null}
        <Button
          w="fit-content"
          disabled={empty || !quote.data || !init.paymentProvider}
          loading={busy}
          onClick={() => void pay()}
          data-testid="subscription-pay"
        >
          {quote.data && !empty
            ? t('pay', { total: formatMoney(quote.data.total, quote.data.currency) })
            : t('payNothing')}
        </Button>
      </Stack>
    </Paper>
  );
}

const STATUS_COLOR: Record<SubscriptionPeriodView['status'], string> = {
  paid: 'teal',
  awaiting: 'yellow',
  failed: 'red',
  cancelled: 'gray',
};

function linesText(lines: SubscriptionLine[], language: string) {
  return lines
    .map((l) => `${localName(l.name, language)}${l.quantity > 1 ? ` × ${l.quantity}` : ''}`)
    .join(', ');
}

function Periods({ init, subscriptionId }: { init: SubscriptionInit; subscriptionId: string }) {
  const { t, i18n } = useTranslation('subscription');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const periodLabel = usePeriodLabel();
  const periods = useQuery({
    queryKey: keys.periods(uuid, subscriptionId),
    queryFn: ({ signal }) =>
      api.call(SubscriptionApi.periods, { params: { uuid, studioSubscription: subscriptionId }, signal }),
  });
  if (!periods.data) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('periods')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('periodsHint', { seller: init.seller.name })}
      </Text>
      {/* A phone gets one card per period (no sideways scrolling); wider screens the table. */}
      <Stack gap="xs" hiddenFrom="sm" data-testid="subscription-period-cards">
        {periods.data.items.map((p) => (
          <Paper key={p.id} withBorder p="sm" radius="md" data-testid="subscription-period-card">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Text fw={600}>{periodLabel(p.period)}</Text>
              <Badge color={STATUS_COLOR[p.status]} variant="light" style={{ flexShrink: 0 }}>
                {t(`periodStatus.${p.status}`)}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {linesText(p.lines, i18n.language)}
            </Text>
            <Group justify="space-between" mt="xs" wrap="nowrap">
              <Text fw={700}>{formatMoney(p.total, p.currency)}</Text>
              <InvoiceLink period={p} />
            </Group>
          </Paper>
        ))}
      </Stack>
      <Table striped verticalSpacing="xs" visibleFrom="sm" data-testid="subscription-periods">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('period')}</Table.Th>
            <Table.Th>{t('items')}</Table.Th>
            <Table.Th ta="right">{t('total')}</Table.Th>
            <Table.Th>{t('statusLabel')}</Table.Th>
            <Table.Th>{t('invoice')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {periods.data.items.map((p) => (
            <Table.Tr key={p.id} data-testid="subscription-period-row">
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{periodLabel(p.period)}</Table.Td>
              <Table.Td>{linesText(p.lines, i18n.language)}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {formatMoney(p.total, p.currency)}
              </Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[p.status]} variant="light">
                  {t(`periodStatus.${p.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <InvoiceLink period={p} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

/** The period's invoice (a download), or a dash before it is paid. */
function InvoiceLink({ period }: { period: SubscriptionPeriodView }) {
  return period.invoice ? (
    <Button
      component="a"
      href={period.invoice.downloadPath}
      download
      size="compact-sm"
      variant="subtle"
      data-testid="subscription-invoice"
    >
      {period.invoice.number}
    </Button>
  ) : (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );
}

/** Back from the payment page: the period's outcome, polled while the provider has not said. */
function ReturnedNotice({ periodId }: { periodId: string }) {
  const { t } = useTranslation('subscription');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: keys.status(uuid, periodId),
    queryFn: async ({ signal }) => {
      const result = await api.call(SubscriptionApi.cartStatus, {
        params: { uuid },
        query: { studioSubscriptionPeriod: periodId },
        signal,
      });
      if (result.period.status !== 'awaiting')
        void queryClient.invalidateQueries({ queryKey: ['subscription'] });
      return result;
    },
    refetchInterval: (q) => (q.state.data?.period.status === 'awaiting' ? 2000 : false),
  });
  if (!status.data) return null;
  const s = status.data.period.status;
  return (
    <Alert color={STATUS_COLOR[s]} data-testid="subscription-returned" title={t(`returned.${s}`)}>
      {s === 'paid' && status.data.period.invoice
        ? t('returnedInvoice', { number: status.data.period.invoice.number })
        : null}
    </Alert>
  );
}
