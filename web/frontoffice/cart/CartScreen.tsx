import {
  Alert,
  Badge,
  Button,
  Center,
  Checkbox,
  Divider,
  Group,
  Loader,
  Paper,
  Radio,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { CartItemInput, CartView, CheckoutInput } from '../../../shared/contracts/api/sales';
import { frontOfficePath } from '../../../shared/contracts/routes';
import { useApiClient, useSession } from '../../lib/app-context';
import { failureText, toFormErrors } from '../../lib/form-errors';
import { SubmitButton } from '../../ui/SubmitButton';
import { useEditorForm } from '../../ui/use-editor-form';
import { useSubmitButton } from '../../ui/use-submit-button';
import { useStudioUuid } from '../studio';
import { useStudioTimeZone } from '../visits/client-bookings.api';
import {
  cartInputs,
  cartKey,
  checkout,
  goToPayment,
  newIdempotencyKey,
  useCart,
  usePrepareCart,
} from './sales.api';
import { SignInFirst } from './SignInFirst';
import { formatMoney } from '../../lib/money';
import { formatDateTime } from '../../../shared/i18n/dates';

/** Error keys the cart and checkout answer with, and how the screen words them. */
export const SALES_ERROR_MESSAGES: Record<string, string> = {
  'wallet.insufficientFunds': 'sales:cart.errors.insufficientFunds',
  'cart.itemUnavailable': 'sales:cart.errors.itemUnavailable',
  'cart.empty': 'sales:cart.errors.empty',
  'resource.notFound': 'sales:cart.errors.unknownVoucher',
  'voucher.notApplicable': 'sales:cart.errors.voucherNotApplicable',
  'payment.providerUnavailable': 'sales:cart.errors.providerUnavailable',
};

/**
 * The shopping cart and its checkout (front office `shopping-cart/status`, `/prepare`,
 * `/voucher-redeem`, `/checkout`). Paying online leaves for the provider's page through the server's
 * form redirect and comes back to the purchases screen; paying from the wallet or a free order goes
 * there at once.
 */
export function CartScreen() {
  const { t } = useTranslation('sales');
  const session = useSession();
  if (!(session.userId && session.sessionId)) {
    return (
      <SignInFirst
        back="cart"
        text={t('cart.signIn')}
        signIn={t('cart.signInButton')}
        testId="cart-signed-out"
      />
    );
  }
  return <Cart />;
}

/** `?add=pricingOption:<id>` (or `contract:<id>`, `product:<id>`, `videoService:<id>`): a "buy this" link from anywhere. */
export function parseAddParam(value: string | null): CartItemInput | null {
  const match = /^(pricingOption|contract|product|videoService):([0-9a-f-]{36})$/i.exec(value ?? '');
  if (!match) return null;
  const [, type, id] = match as unknown as [string, CartItemInput['type'], string];
  return type === 'product' ? { type, id, quantity: 1 } : { type, id };
}

function Cart() {
  const { t } = useTranslation('sales');
  const studio = useStudioUuid();
  const cart = useCart(studio);
  const prepare = usePrepareCart(studio);
  const [params, setParams] = useSearchParams();
  const adding = parseAddParam(params.get('add'));
  const addedOnce = useRef(false);
  useEffect(() => {
    if (!adding || !cart.data || addedOnce.current) return;
    addedOnce.current = true;
    const present = cart.data.items.some((i) => i.type === adding.type && i.id === adding.id);
    const done = () => setParams({}, { replace: true });
    if (present) done();
    else prepare.mutate([...cartInputs(cart.data), adding], { onSettled: done });
  }, [adding, cart.data, prepare, setParams]);
  if (cart.error) return <LoadError error={cart.error} retry={() => void cart.refetch()} />;
  if (cart.isPending || adding !== null || prepare.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  return (
    <Stack gap="lg" data-testid="cart">
      <Title order={2}>{t('cart.title')}</Title>
      {cart.data.items.length === 0 ? (
        <Paper withBorder p="lg" radius="md" data-testid="cart-empty">
          <Stack gap="sm" align="flex-start">
            <Text c="dimmed">{t('cart.empty')}</Text>
            <Button component={Link} to="/pricing/pricing-options" variant="default">
              {t('cart.seePrices')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <CartContents cart={cart.data} />
      )}
    </Stack>
  );
}

/** A failed load: the §8 general message with its code, and a retry. */
export function LoadError({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Alert color="red" variant="light" data-testid="load-error">
      <Group justify="space-between">
        <Text size="sm">{failureText(error, t, 'errors.generalWithCode')}</Text>
        <Button size="xs" variant="default" onClick={retry}>
          {t('actions.retry')}
        </Button>
      </Group>
    </Alert>
  );
}

function CartContents({ cart }: { cart: CartView }) {
  const { t, i18n } = useTranslation('sales');
  const studio = useStudioUuid();
  const api = useApiClient();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const prepare = usePrepareCart(studio);
  const money = (amount: number) => formatMoney(amount, cart.currency);
  const tz = useStudioTimeZone();
  const fields = useEditorForm(() => ({
    method: (cart.paymentMethods.includes('online') ? 'online' : 'wallet') as CheckoutInput['paymentMethod'],
    saveCard: false,
    voucher: '',
  }));
  const { method, saveCard, voucher } = fields.values;
  const [voucherError, setVoucherError] = useState<string | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const pay = useSubmitButton();
  const voucherButton = useSubmitButton();
  // One key per cart content and method: a retried press after a lost answer charges once.
  const keyFor = useRef<{ sig: string; key: string } | null>(null);
  const walletOk = cart.paymentMethods.includes('wallet');
  const free = cart.total === 0;
  // Only a provider that can charge the card later offers to keep it, and only for an online payment.
  const offerSaveCard = cart.canSaveCard && method === 'online' && !free;
  const keepCard = offerSaveCard && saveCard;
  const signature = useMemo(
    () => JSON.stringify([cartInputs(cart), cart.voucher?.code ?? null, method, keepCard, i18n.language]),
    [cart, method, keepCard, i18n.language],
  );

  const remove = (index: number) => {
    const items = cartInputs(cart).filter((_, i) => i !== index);
    prepare.mutate(items);
  };

  const applyVoucher = async (code: string | null) => {
    setVoucherError(null);
    const result = await voucherButton.run(() =>
      api.post<CartView>(`${studio}/shopping-cart/voucher-redeem`, { code }),
    );
    if (!result.accepted) return;
    if (result.ok) {
      queryClient.setQueryData(cartKey(studio, i18n.language), result.value);
      fields.set('voucher', '');
    } else {
      const errors = toFormErrors(result.error, t, {
        messagesByKey: SALES_ERROR_MESSAGES,
        unexpected: 'withCode',
      });
      setVoucherError(errors.form[0] ?? errors.fields.code ?? t('cart.errors.unknownVoucher'));
    }
  };

  const submit = async () => {
    setPayError(null);
    if (keyFor.current?.sig !== signature) keyFor.current = { sig: signature, key: newIdempotencyKey() };
    const key = keyFor.current.key;
    // A pass bought for a visit brings the client back to "My visits", where the visit shows paid.
    const forVisit = cart.items.some((i) => i.forVisit);
    const input: CheckoutInput = {
      paymentMethod: method,
      // The return from the payment page comes back in the language the client pays in.
      locale: i18n.language === 'pl' ? 'pl' : 'en',
      ...(keepCard ? { saveCard: true } : {}),
      ...(forVisit ? { returnPath: frontOfficePath(studio, 'visits') } : {}),
    };
    const result = await pay.run(() => checkout(api, studio, input, key));
    if (!result.accepted) return;
    if (!result.ok) {
      const errors = toFormErrors(result.error, t, {
        messagesByKey: SALES_ERROR_MESSAGES,
        unexpected: 'withCode',
      });
      setPayError(errors.form[0] ?? Object.values(errors.fields)[0] ?? null);
      void queryClient.invalidateQueries({ queryKey: cartKey(studio) });
      return;
    }
    keyFor.current = null;
    queryClient.removeQueries({ queryKey: cartKey(studio) });
    if (result.value.redirectUrl) goToPayment(result.value.redirectUrl);
    else void navigate(`/${forVisit ? 'visits' : 'purchases'}?order=${result.value.orderId}`);
  };

  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        <Stack gap={0}>
          {cart.items.map((item, index) => (
            <Group
              key={`${item.type}-${item.id}-${item.forVisit?.id ?? ''}`}
              justify="space-between"
              wrap="nowrap"
              p="md"
              style={{ borderTop: index > 0 ? '1px solid var(--mantine-color-gray-3)' : undefined }}
              data-testid="cart-item"
            >
              <Stack gap={2} style={{ minWidth: 0 }}>
                {/* A translated name may be longer: it wraps on a phone instead of being cut. */}
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {item.name || '—'}
                </Text>
                {item.forVisit ? (
                  <Text size="xs" c="dimmed" data-testid="cart-item-for-visit">
                    {t('cart.forVisit', {
                      name: item.forVisit.className,
                      when: formatDateTime(item.forVisit.startsAt, i18n.language, tz),
                    })}
                  </Text>
                ) : null}
                <Group gap="xs">
                  {item.quantity > 1 ? (
                    <Text size="sm" c="dimmed">
                      {item.quantity} × {money(item.unitPrice)}
                    </Text>
                  ) : null}
                  {item.problem ? (
                    <Badge color="red" variant="light" data-testid="cart-item-problem">
                      {t(item.problem)}
                    </Badge>
                  ) : null}
                </Group>
              </Stack>
              <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
                <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {money(item.total)}
                </Text>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  onClick={() => remove(index)}
                  loading={prepare.isPending}
                  aria-label={`${t('cart.remove')}: ${item.name}`}
                >
                  {t('cart.remove')}
                </Button>
              </Group>
            </Group>
          ))}
        </Stack>
      </Paper>

      <Paper withBorder p="md" radius="md">
        {cart.voucher ? (
          <Group justify="space-between">
            <Text size="sm">
              {t('cart.voucher.applied', { code: cart.voucher.code })}
              {cart.voucher.problem ? null : ` −${money(cart.voucher.discount)}`}
            </Text>
            <Button size="xs" variant="subtle" onClick={() => void applyVoucher(null)}>
              {t('cart.voucher.remove')}
            </Button>
          </Group>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (voucher.trim()) void applyVoucher(voucher.trim());
            }}
          >
            <Group align="flex-start" wrap="nowrap">
              <TextInput
                label={t('cart.voucher.label')}
                value={voucher}
                onChange={(e) => fields.set('voucher', e.currentTarget.value)}
                error={voucherError}
                style={{ flex: 1 }}
                name="code"
                data-testid="voucher-code"
              />
              <SubmitButton state={voucherButton.state} variant="default" mt={25}>
                {t('cart.voucher.apply')}
              </SubmitButton>
            </Group>
          </form>
        )}
      </Paper>

      <Paper withBorder p="md" radius="md">
        <Stack gap="xs">
          <Group justify="space-between">
            <Text c="dimmed">{t('cart.subtotal')}</Text>
            <Text>{money(cart.subtotal)}</Text>
          </Group>
          {cart.discount > 0 ? (
            <Group justify="space-between">
              <Text c="dimmed">{t('cart.discount')}</Text>
              <Text>−{money(cart.discount)}</Text>
            </Group>
          ) : null}
          <Divider />
          <Group justify="space-between">
            <Text fw={700}>{t('cart.total')}</Text>
            <Text fw={700} size="lg" data-testid="cart-total">
              {money(cart.total)}
            </Text>
          </Group>
        </Stack>
      </Paper>

      {free ? null : (
        <Paper withBorder p="md" radius="md">
          <Radio.Group
            label={t('cart.method.title')}
            value={method}
            onChange={(v) => fields.set('method', v as CheckoutInput['paymentMethod'])}
          >
            <Stack gap="xs" mt="xs">
              <Radio
                value="online"
                label={t('cart.method.online')}
                disabled={!cart.paymentMethods.includes('online')}
                data-testid="method-online"
              />
              <Radio
                value="wallet"
                label={t('cart.method.wallet', { balance: money(cart.walletBalance) })}
                disabled={!walletOk}
                data-testid="method-wallet"
              />
              {!walletOk ? (
                <Text size="xs" c="dimmed">
                  {t('cart.method.walletTooLow', { balance: money(cart.walletBalance) })}
                </Text>
              ) : null}
            </Stack>
          </Radio.Group>
          {!cart.paymentMethods.includes('online') ? (
            <Text size="sm" c="dimmed" mt="xs">
              {t('cart.noOnline')}
            </Text>
          ) : null}
          {offerSaveCard ? (
            <Checkbox
              mt="md"
              checked={saveCard}
              onChange={(e) => fields.set('saveCard', e.currentTarget.checked)}
              label={t('cart.saveCard.label')}
              description={t('cart.saveCard.hint')}
              data-testid="checkout-save-card"
            />
          ) : null}
        </Paper>
      )}

      {payError ? (
        <Alert color="red" variant="light" data-testid="checkout-error">
          {payError}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <SubmitButton
          state={pay.state}
          type="button"
          size="md"
          onClick={() => void submit()}
          disabled={!cart.canCheckout || (!free && !cart.paymentMethods.includes(method))}
          data-testid="checkout-pay"
        >
          {free ? t('cart.getFree') : t('cart.pay', { amount: money(cart.total) })}
        </SubmitButton>
      </Group>
    </Stack>
  );
}
