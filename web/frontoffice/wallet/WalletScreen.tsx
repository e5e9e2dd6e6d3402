import { Alert, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { CheckoutResult, WalletView } from '../../../shared/contracts/api/sales';
import { useApiClient, useSession } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { PaymentCardList } from '../../features/sales/PaymentCardList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useSubmitButton } from '../../ui/use-submit-button';
import { AmountPicker } from '../cart/AmountPicker';
import { LoadError, SALES_ERROR_MESSAGES } from '../cart/CartScreen';
import { goToPayment, newIdempotencyKey, postOnce } from '../cart/sales.api';
import { PaymentResult } from '../purchases/PurchasesScreen';
import { useStudioUuid } from '../studio';
import { PaymentCardsApi } from '../../../shared/contracts/http/payment-cards';
import { SignInFirst } from '../cart/SignInFirst';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../../shared/i18n/dates';
import { useStudioTimeZone } from '../visits/client-bookings.api';

/**
 * "My wallet" (front office `wallet/init`, `wallet/top-up`): the balance (the sum of the wallet's
 * entries, computed by the server), its history, and a top-up paid online that comes back here.
 */
export function WalletScreen() {
  const { t } = useTranslation('sales');
  const session = useSession();
  if (!(session.userId && session.sessionId)) {
    return <SignInFirst back="wallet" text={t('cart.signIn')} signIn={t('cart.signInButton')} />;
  }
  return <Wallet />;
}

function Wallet() {
  const { t, i18n } = useTranslation('sales');
  const tz = useStudioTimeZone();
  const api = useApiClient();
  const studio = useStudioUuid();
  const [params] = useSearchParams();
  const orderId = params.get('order');
  const wallet = useQuery({
    queryKey: ['wallet', studio, orderId],
    queryFn: ({ signal }) => api.get<WalletView>(`${studio}/wallet/init`, { signal }),
  });
  if (wallet.error) return <LoadError error={wallet.error} retry={() => void wallet.refetch()} />;
  if (wallet.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const w = wallet.data;
  const money = (a: number) => formatMoney(a, w.currency);
  return (
    <Stack gap="lg" data-testid="wallet">
      <Title order={2}>{t('wallet.title')}</Title>
      {orderId ? <PaymentResult orderId={orderId} messages="wallet" /> : null}
      <Paper withBorder p="lg" radius="md">
        <Text c="dimmed" size="sm">
          {t('wallet.balance')}
        </Text>
        <Text fw={700} fz={32} data-testid="wallet-balance">
          {money(w.balance)}
        </Text>
      </Paper>
      <TopUp wallet={w} />
      <SavedCards />
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('wallet.history')}
        </Title>
        {w.entries.length === 0 ? (
          <Text c="dimmed">{t('wallet.empty')}</Text>
        ) : (
          <Paper withBorder radius="md">
            {w.entries.map((e, i) => (
              <Group
                key={e.id}
                justify="space-between"
                p="sm"
                style={{ borderTop: i > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined }}
                data-testid="wallet-entry"
              >
                <Stack gap={0}>
                  <Text fw={500}>{t(`wallet.kind.${e.kind}`)}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(e.createdAt, i18n.language, tz)}
                  </Text>
                </Stack>
                <Text fw={600} c={e.amount < 0 ? 'red' : 'green'}>
                  {e.amount > 0 ? '+' : ''}
                  {money(e.amount)}
                </Text>
              </Group>
            ))}
          </Paper>
        )}
      </Stack>
    </Stack>
  );
}

/**
 * The cards the client kept at an online checkout (`me/payment-cards`), removable here. Shown only
 * when there is one: a studio whose provider cannot keep cards never offers it.
 */
function SavedCards() {
  const { t } = useTranslation('sales');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const key = ['payment-cards', studio] as const;
  const cards = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.call(PaymentCardsApi.getMePaymentCards, { params: { uuid: studio }, signal }),
  });
  if (!cards.data || cards.data.items.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="saved-cards">
      <Title order={3} size="h4">
        {t('cards.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('cards.intro')}
      </Text>
      <PaymentCardList
        cards={cards.data.items}
        onRemove={async (card) => {
          await api.call(PaymentCardsApi.deleteMePaymentCard, { params: { uuid: studio, card: card.id } });
          await queryClient.invalidateQueries({ queryKey: key });
        }}
      />
    </Stack>
  );
}

function TopUp({ wallet }: { wallet: WalletView }) {
  const { t, i18n } = useTranslation('sales');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [amount, setAmount] = useState<number | null>(
    wallet.topUpAmounts[1] ?? wallet.topUpAmounts[0] ?? null,
  );
  const [error, setError] = useState<string | null>(null);
  const button = useSubmitButton();
  const keyFor = useRef<{ amount: number; lang: string; key: string } | null>(null);
  const money = (a: number) => formatMoney(a, wallet.currency);
  if (!wallet.onlinePayment)
    return (
      <Alert color="gray" variant="light">
        {t('wallet.noOnline')}
      </Alert>
    );
  const submit = async () => {
    if (amount === null) return;
    setError(null);
    if (keyFor.current?.amount !== amount || keyFor.current.lang !== i18n.language)
      keyFor.current = { amount, lang: i18n.language, key: newIdempotencyKey() };
    const key = keyFor.current.key;
    const result = await button.run(() =>
      postOnce<CheckoutResult>(
        api,
        `${studio}/wallet/top-up`,
        { amount, locale: i18n.language === 'pl' ? 'pl' : 'en' },
        key,
      ),
    );
    if (!result.accepted) return;
    if (result.ok && result.value.redirectUrl) return goToPayment(result.value.redirectUrl);
    if (!result.ok) {
      const errors = toFormErrors(result.error, t, {
        messagesByKey: SALES_ERROR_MESSAGES,
        unexpected: 'withCode',
      });
      setError(errors.fields.amount ?? errors.form[0] ?? null);
    }
  };
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('wallet.topUp')}
        </Title>
        <AmountPicker
          amounts={wallet.topUpAmounts}
          currency={wallet.currency}
          min={wallet.minTopUp}
          max={wallet.maxTopUp}
          value={amount}
          onChange={setAmount}
          customLabel={t('wallet.custom')}
          limitsLabel={t('wallet.limits', { min: money(wallet.minTopUp), max: money(wallet.maxTopUp) })}
          error={error}
          testId="top-up-amount"
        />
        <Group>
          <SubmitButton
            state={button.state}
            type="button"
            onClick={() => void submit()}
            disabled={amount === null}
            data-testid="top-up-submit"
          >
            {amount === null ? t('wallet.topUp') : t('wallet.topUpButton', { amount: money(amount) })}
          </SubmitButton>
        </Group>
      </Stack>
    </Paper>
  );
}
