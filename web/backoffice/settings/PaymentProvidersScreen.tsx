import {
  Alert,
  Badge,
  Button,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PaymentProviderTestResult, PaymentProviderView } from '../../../shared/contracts/api/sales';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useSubmitButton } from '../../ui/use-submit-button';
import { useBackoffice } from '../backoffice.api';
import { PaymentsAtDeskOnly } from '../studio-admin/SetupCard';
import {
  paymentProviderCalls,
  typedCredentials,
  useInvalidatePaymentProviders,
  usePaymentProviders,
  type StripeFormValues,
} from './PaymentProviders.api';
import { SettingsLayout } from './SettingsLayout';

/**
 * Settings → Online payments: the studio's Stripe keys (saved encrypted; only a hint comes back),
 * the webhook address to enter in Stripe's dashboard, "Test connection" (typed keys before saving,
 * the saved ones otherwise), the built-in test provider's switch, and above them the studio's answer
 * "we take payments at the desk only" (studio-admin's setup). `settings.view` may look; changing
 * needs `settings.edit`.
 */
export function PaymentProvidersScreen() {
  const { t } = useTranslation('sales');
  const providers = usePaymentProviders();
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const body = providers.error ? (
    <Alert color="red" data-testid="payment-providers-error">
      {t('providers.loadError')}
    </Alert>
  ) : !providers.data ? (
    <Center p="xl">
      <Loader size="sm" />
    </Center>
  ) : (
    <Stack gap="lg">
      <Text c="dimmed" size="sm">
        {t('providers.intro')}
      </Text>
      <PaymentsAtDeskOnly />
      {providers.data.items.map((p) =>
        p.provider === 'stripe' ? (
          <StripeCard key={p.provider} view={p} canEdit={canEdit} />
        ) : (
          <TestProviderCard key={p.provider} view={p} canEdit={canEdit} />
        ),
      )}
    </Stack>
  );
  return <SettingsLayout page="paymentProviders">{body}</SettingsLayout>;
}

function StatusBadge({ view }: { view: PaymentProviderView }) {
  const { t } = useTranslation('sales');
  const [color, key] = !view.configured
    ? ['gray', 'notConfigured']
    : view.enabled
      ? ['green', 'enabled']
      : ['yellow', 'disabled'];
  return (
    <Badge color={color} variant="light" data-testid={`provider-status-${view.provider}`}>
      {t(`providers.status.${key}`)}
    </Badge>
  );
}

function TestResult({ result }: { result: PaymentProviderTestResult | null }) {
  const { t } = useTranslation('sales');
  if (!result) return null;
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      title={result.ok ? t('providers.result.ok') : t(`providers.result.${result.reason ?? 'error'}`)}
      data-testid="provider-test-result"
    >
      {result.ok
        ? result.livemode === undefined
          ? t('providers.result.ready')
          : t(result.livemode ? 'providers.result.liveMode' : 'providers.result.testMode')
        : result.reason === 'noCredentials'
          ? t('providers.result.noCredentialsHint')
          : result.message}
    </Alert>
  );
}

function StripeCard({ view, canEdit }: { view: PaymentProviderView; canEdit: boolean }) {
  const { t } = useTranslation('sales');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidatePaymentProviders();
  const [result, setResult] = useState<PaymentProviderTestResult | null>(null);
  const testButton = useSubmitButton();
  const form = useServerForm<StripeFormValues, PaymentProviderView>({
    initialValues: {
      'credentials.secretKey': '',
      'credentials.webhookSecret': '',
      enabled: view.enabled ? 'true' : 'false',
    },
    submit: (values) =>
      paymentProviderCalls.update(api, studio, 'stripe', {
        enabled: values.enabled === 'true',
        credentials: typedCredentials(values),
      }),
    onSuccess: () => {
      form.setValue('credentials.secretKey', '');
      form.setValue('credentials.webhookSecret', '');
      void invalidate();
    },
    errorOptions: { unexpected: 'savingSettings' },
  });
  const webhookUrl = `${window.location.origin}${view.webhookPath}`;
  const test = () =>
    void testButton
      .run(() => paymentProviderCalls.testConnection(api, studio, 'stripe', typedCredentials(form.values)))
      .then((outcome) => {
        if (outcome.accepted && outcome.ok) setResult(outcome.value);
      });

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="provider-stripe">
      <form {...form.formProps}>
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h4">
              Stripe
            </Title>
            <StatusBadge view={view} />
          </Group>
          <Text size="sm" c="dimmed">
            {t('providers.stripe.description')}
          </Text>
          {view.secretKeyHint ? (
            <Text size="sm" data-testid="stripe-key-hint">
              {t('providers.stripe.savedKey')} <Code>{view.secretKeyHint}</Code>
            </Text>
          ) : null}
          <FormErrorList errors={form.formErrors} />
          <PasswordInput
            {...form.getInputProps('credentials.secretKey')}
            error={form.fieldErrors['credentials.secretKey'] && t('providers.stripe.secretKeyInvalid')}
            label={t('providers.stripe.secretKey')}
            description={t(view.configured ? 'providers.stripe.keepHint' : 'providers.stripe.secretKeyHint')}
            placeholder="sk_test_…"
            autoComplete="off"
            disabled={!canEdit}
            data-testid="stripe-secret-key"
          />
          <PasswordInput
            {...form.getInputProps('credentials.webhookSecret')}
            error={
              form.fieldErrors['credentials.webhookSecret'] && t('providers.stripe.webhookSecretInvalid')
            }
            label={t('providers.stripe.webhookSecret')}
            placeholder="whsec_…"
            autoComplete="off"
            disabled={!canEdit}
            data-testid="stripe-webhook-secret"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('providers.stripe.webhookUrl')}
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code block style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'normal' }}>
                {webhookUrl}
              </Code>
              <CopyButton value={webhookUrl}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="default" onClick={copy}>
                    {copied ? t('providers.copied') : t('providers.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="xs" c="dimmed">
              {t('providers.stripe.webhookHint')}
            </Text>
          </Stack>
          <Switch
            label={t('providers.stripe.enabled')}
            checked={form.values.enabled === 'true'}
            onChange={(e) => form.setValue('enabled', e.currentTarget.checked ? 'true' : 'false')}
            error={form.fieldErrors.enabled && t('providers.stripe.keysFirst')}
            disabled={!canEdit}
            data-testid="stripe-enabled"
          />
          <TestResult result={result} />
          {canEdit ? (
            <Group justify="flex-end">
              <SubmitButton
                type="button"
                variant="default"
                state={testButton.state}
                onClick={test}
                data-testid="stripe-test-connection"
              >
                {t('providers.testConnection')}
              </SubmitButton>
              <SubmitButton state={form.buttonState} data-testid="stripe-save">
                {t('providers.save')}
              </SubmitButton>
            </Group>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

function TestProviderCard({ view, canEdit }: { view: PaymentProviderView; canEdit: boolean }) {
  const { t } = useTranslation('sales');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidatePaymentProviders();
  const [result, setResult] = useState<PaymentProviderTestResult | null>(null);
  const testButton = useSubmitButton();
  const toggle = useSubmitButton();
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="provider-test">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4">
            {t('providers.test.title')}
          </Title>
          <StatusBadge view={view} />
        </Group>
        <Text size="sm" c="dimmed">
          {t('providers.test.description')}
        </Text>
        <Switch
          label={t('providers.test.enabled')}
          checked={view.enabled}
          disabled={!canEdit || toggle.state !== 'idle'}
          onChange={(e) => {
            const enabled = e.currentTarget.checked;
            void toggle
              .run(() => paymentProviderCalls.update(api, studio, 'test', { enabled }))
              .then(() => invalidate());
          }}
          data-testid="test-provider-enabled"
        />
        <TestResult result={result} />
        {canEdit ? (
          <Group justify="flex-end">
            <SubmitButton
              type="button"
              variant="default"
              state={testButton.state}
              onClick={() =>
                void testButton
                  .run(() => paymentProviderCalls.testConnection(api, studio, 'test'))
                  .then((o) => o.accepted && o.ok && setResult(o.value))
              }
              data-testid="test-provider-test-connection"
            >
              {t('providers.testConnection')}
            </SubmitButton>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
