import {
  Alert,
  Button,
  Center,
  Checkbox,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CheckoutResult, DonationInit, DonationStatusView } from '../../../shared/contracts/api/sales';
import { frontOfficePath } from '../../../shared/contracts/routes';
import { ApiError } from '../../lib/api-client';
import { useApiClient, usePageContext } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { AppFrame } from '../../ui/AppFrame';
import { CenteredMessage } from '../../ui/CenteredMessage';
import { SubmitButton } from '../../ui/SubmitButton';
import { useEditorForm } from '../../ui/use-editor-form';
import { useSubmitButton } from '../../ui/use-submit-button';
import { AmountPicker } from '../cart/AmountPicker';
import { LoadError, SALES_ERROR_MESSAGES } from '../cart/CartScreen';
import { goToPayment, newIdempotencyKey, postOnce } from '../cart/sales.api';
import { useStudioUuid } from '../studio';
import { formatMoney } from '../../lib/money';

/**
 * The donation app (spec §2 `/{uuid}/donation` and `/{uuid}/donation/payment-status`): anyone may
 * give an amount to the studio, paid online; the bank sends the donor back to the payment-status
 * page, which polls until the payment is decided. For `web/donation/main.tsx`:
 * `startApp('donation', (ctx) => <DonationApp studioUuid={ctx.studioUuid} />, { namespace: 'donation' })`.
 */
export function DonationApp({ studioUuid }: { studioUuid: string | null }) {
  const statusPage = /\/donation\/payment-status\/?$/.test(window.location.pathname);
  const payment = new URLSearchParams(window.location.search).get('payment');
  return <DonationScreen studioUuid={studioUuid} view={statusPage ? { payment } : 'form'} />;
}

/**
 * The donation form or the payment-status view. Framed (header, language switch, footer) as the
 * donation app; unframed inside the client zone, which returns to its own payment-status route.
 */
export function DonationScreen({
  studioUuid,
  view,
  framed = true,
  basePath,
}: {
  studioUuid: string | null;
  view: 'form' | { payment: string | null };
  framed?: boolean;
  /** Unframed: the client zone's path of the form (its payment-status page is below it). */
  basePath?: string;
}) {
  const { t } = useTranslation('sales');
  const api = useApiClient();
  const init = useQuery({
    queryKey: ['donation-init', studioUuid],
    queryFn: ({ signal }) => api.post<DonationInit>(`${studioUuid}/donation/init`, {}, { signal }),
    enabled: studioUuid !== null,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
  const title = init.data ? t('donation.title', { studio: init.data.studio.name }) : t('donation.line');
  let body;
  if (!studioUuid || (init.error instanceof ApiError && init.error.status === 404))
    body = <CenteredMessage title={t('donation.notFound')}>{null}</CenteredMessage>;
  else if (init.error) body = <LoadError error={init.error} retry={() => void init.refetch()} />;
  else if (init.isPending)
    body = (
      <Center py="xl">
        <Loader />
      </Center>
    );
  else if (view === 'form')
    body = <DonationForm init={init.data} returnPath={basePath ? `${basePath}/payment-status` : undefined} />;
  else body = <DonationStatus init={init.data} payment={view.payment} formPath={basePath} />;
  if (!framed)
    return (
      <Stack gap="lg" maw={560}>
        <Title order={2}>{title}</Title>
        {body}
      </Stack>
    );
  return (
    <AppFrame title={title} size="xs">
      {body}
    </AppFrame>
  );
}

function DonationForm({ init, returnPath }: { init: DonationInit; returnPath?: string }) {
  const { t, i18n } = useTranslation('sales');
  const api = useApiClient();
  const fields = useEditorForm(() => ({
    amount: (init.amounts[1] ?? init.amounts[0] ?? null) as number | null,
    name: init.donor?.name ?? '',
    email: init.donor?.email ?? '',
    message: '',
    anonymous: false,
  }));
  const { amount, name, email, message, anonymous } = fields.values;
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const setErrors = (next: { fields: Record<string, string>; form: string[] }) => {
    fields.setErrors(next.fields);
    setFormErrors(next.form);
  };
  const errors = { fields: fields.errors, form: formErrors };
  const button = useSubmitButton();
  const keyFor = useRef<{ sig: string; key: string } | null>(null);
  const money = (a: number) => formatMoney(a, init.currency);

  if (!init.available)
    return (
      <Alert color="gray" variant="light" data-testid="donation-unavailable">
        {t('donation.unavailable')}
      </Alert>
    );

  const submit = async () => {
    if (amount === null) return;
    const body = {
      amount,
      name,
      email,
      message,
      anonymous,
      // The return from the bank comes back in the language the donor gives in (issue 26).
      locale: i18n.language === 'pl' ? ('pl' as const) : ('en' as const),
      ...(returnPath ? { returnPath } : {}),
    };
    const sig = JSON.stringify(body);
    if (keyFor.current?.sig !== sig) keyFor.current = { sig, key: newIdempotencyKey() };
    const key = keyFor.current.key;
    setErrors({ fields: {}, form: [] });
    const result = await button.run(() =>
      postOnce<CheckoutResult>(api, `${init.studio.id}/donation/checkout`, body, key),
    );
    if (!result.accepted) return;
    if (result.ok && result.value.redirectUrl) return goToPayment(result.value.redirectUrl);
    if (!result.ok)
      setErrors(
        toFormErrors(result.error, t, { messagesByKey: SALES_ERROR_MESSAGES, unexpected: 'withCode' }),
      );
  };

  return (
    <Paper withBorder p="lg" radius="md" data-testid="donation-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Stack gap="md">
          {init.studio.logoUrl ? (
            <img src={init.studio.logoUrl} alt="" style={{ maxHeight: 56, alignSelf: 'flex-start' }} />
          ) : null}
          <Text>{t('donation.intro')}</Text>
          <Stack gap={4}>
            <Text fw={500} size="sm">
              {t('donation.amount')}
            </Text>
            <AmountPicker
              amounts={init.amounts}
              currency={init.currency}
              min={init.min}
              max={init.max}
              value={amount}
              onChange={(value) => fields.set('amount', value)}
              customLabel={t('donation.custom')}
              limitsLabel={t('donation.limits', { min: money(init.min), max: money(init.max) })}
              error={errors.fields.amount}
              testId="donation-amount"
            />
          </Stack>
          <TextInput
            label={t('donation.name')}
            value={name}
            onChange={(e) => fields.set('name', e.currentTarget.value)}
            error={errors.fields.name}
            maxLength={200}
            name="name"
            autoComplete="name"
          />
          <TextInput
            label={t('donation.email')}
            type="email"
            required
            value={email}
            onChange={(e) => fields.set('email', e.currentTarget.value)}
            error={errors.fields.email}
            name="email"
            autoComplete="email"
            data-testid="donation-email"
          />
          <Textarea
            label={t('donation.message')}
            value={message}
            onChange={(e) => fields.set('message', e.currentTarget.value)}
            error={errors.fields.message}
            maxLength={500}
            autosize
            minRows={2}
            name="message"
          />
          <Checkbox
            label={t('donation.anonymous')}
            checked={anonymous}
            onChange={(e) => fields.set('anonymous', e.currentTarget.checked)}
          />
          {errors.form.length > 0 ? (
            <Alert color="red" variant="light">
              {errors.form[0]}
            </Alert>
          ) : null}
          <SubmitButton
            state={button.state}
            disabled={amount === null || email.trim() === ''}
            size="md"
            data-testid="donation-submit"
          >
            {amount === null ? t('donation.amount') : t('donation.submit', { amount: money(amount) })}
          </SubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}

function DonationStatus({
  init,
  payment,
  formPath: givenFormPath,
}: {
  init: DonationInit;
  payment: string | null;
  formPath?: string;
}) {
  const { t } = useTranslation('sales');
  const api = useApiClient();
  const context = usePageContext();
  const status = useQuery({
    queryKey: ['donation-status', init.studio.id, payment],
    queryFn: ({ signal }) =>
      api.get<DonationStatusView>(`${init.studio.id}/donation/payment-status`, {
        query: { payment: payment ?? '' },
        signal,
      }),
    enabled: payment !== null,
    refetchInterval: (q) => (q.state.data?.status === 'pending' ? 1500 : false),
  });
  const formPath = givenFormPath ?? `/${context.studioUuid ?? init.studio.id}/donation`;
  if (payment === null || status.error)
    return <CenteredMessage title={t('pages.notFound')}>{null}</CenteredMessage>;
  if (!status.data)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const s = status.data.status;
  const color = s === 'succeeded' ? 'green' : s === 'pending' ? 'blue' : 'red';
  return (
    <Stack gap="md" data-testid="donation-status" data-outcome={s}>
      <Alert
        color={color}
        variant="light"
        icon={s === 'pending' ? <Loader size="xs" /> : undefined}
        title={
          s === 'succeeded' ? (
            <Title order={2} size="h4">
              {formatMoney(status.data.amount, status.data.currency)}
            </Title>
          ) : undefined
        }
      >
        {t(`donation.status.${s}`, { amount: formatMoney(status.data.amount, status.data.currency) })}
      </Alert>
      {s === 'pending' ? null : (
        <Button component="a" href={formPath} variant={s === 'succeeded' ? 'default' : 'filled'}>
          {s === 'succeeded' ? t('donation.again') : t('donation.tryAgain')}
        </Button>
      )}
    </Stack>
  );
}

/** The client zone's donation routes (`donation`, `donation/payment-status`). */
export function FrontofficeDonation({ status }: { status?: boolean }) {
  const studioUuid = useStudioUuid();
  const payment = new URLSearchParams(window.location.search).get('payment');
  return (
    <DonationScreen
      studioUuid={studioUuid}
      view={status ? { payment } : 'form'}
      framed={false}
      basePath={`${frontOfficePath(studioUuid)}/donation`}
    />
  );
}
