import { Alert, Checkbox, Loader, Paper, Select, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Account } from '../../../shared/contracts/api/client-accounts';
import { formatDateLong } from '../../../shared/i18n/dates';
import { LOCALES, type Locale } from '../../../shared/i18n/locales';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';
import { useStudioTimeZone } from '../visits/client-bookings.api';
import { accountKeys, patchAccount, useAccount } from './account.api';
import { PushDevice } from './PushDevice';

const CHANNELS = ['email', 'sms', 'push'] as const;
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', pl: 'Polski' };

/**
 * `settings`: language (applied at once), how the studio may notify the client and their answer to
 * the studio's marketing consent — one `PATCH account`.
 */
export function SettingsScreen() {
  const { t } = useTranslation('account');
  const settings = useAccount();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="account-settings">
      {settings.isPending ? (
        <Loader size="sm" />
      ) : !settings.data ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : (
        <SettingsForm account={settings.data} />
      )}
    </Paper>
  );
}

function SettingsForm({ account }: { account: Account }) {
  const { t, i18n } = useTranslation('account');
  const { settings, marketingConsent } = account;
  const agreement = marketingConsent.agreement;
  const api = useApiClient();
  const studio = useStudioUuid();
  const timeZone = useStudioTimeZone();
  const queryClient = useQueryClient();
  const flag = (on: boolean) => (on ? 'true' : '');
  const form = useServerForm({
    initialValues: {
      locale: settings.locale ?? (i18n.language === 'pl' ? 'pl' : 'en'),
      'notifications.email': flag(settings.notifications.email),
      'notifications.sms': flag(settings.notifications.sms),
      'notifications.push': flag(settings.notifications.push),
      marketingConsent: flag(marketingConsent.accepted),
    },
    submit: (v) =>
      patchAccount(api, studio, {
        locale: v.locale as Locale,
        notifications: {
          email: v['notifications.email'] === 'true',
          sms: v['notifications.sms'] === 'true',
          push: v['notifications.push'] === 'true',
        },
        ...(agreement ? { marketingConsent: v.marketingConsent === 'true' } : {}),
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(accountKeys.account(studio), saved);
      queryClient.setQueryData(accountKeys.settings(studio), saved.settings);
      const locale = saved.settings.locale;
      if (locale && locale !== i18n.language) void i18n.changeLanguage(locale);
    },
  });
  const locale = form.getInputProps('locale');
  return (
    <form {...form.formProps} data-testid="settings-form">
      <Stack gap="md" maw={420}>
        <Title order={2} size="h3">
          {t('settings.title')}
        </Title>
        <FormErrorList errors={form.formErrors} />
        <Select
          name="locale"
          label={t('settings.language')}
          value={locale.value}
          onChange={(value) => value && form.setValue('locale', value)}
          error={locale.error}
          data={LOCALES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          allowDeselect={false}
          data-testid="settings-locale"
        />
        <Text fw={600} mt="xs">
          {t('settings.notificationsHeading')}
        </Text>
        {CHANNELS.map((channel) => {
          const name = `notifications.${channel}` as const;
          return (
            <Checkbox
              key={channel}
              name={name}
              label={t(`settings.${channel}`)}
              checked={form.values[name] === 'true'}
              onChange={(event) => form.setValue(name, flag(event.currentTarget.checked))}
              error={form.fieldErrors[name]}
              data-testid={`settings-${channel}`}
            />
          );
        })}
        {form.values['notifications.push'] === 'true' && <PushDevice />}
        {agreement && (
          <Stack gap={6} mt="xs" data-testid="settings-marketing">
            <Text fw={600}>{t('settings.consentHeading')}</Text>
            <Checkbox
              name="marketingConsent"
              label={agreement.title}
              checked={form.values.marketingConsent === 'true'}
              onChange={(event) => form.setValue('marketingConsent', flag(event.currentTarget.checked))}
              error={form.fieldErrors.marketingConsent}
              data-testid="settings-marketing-consent"
            />
            {agreement.content && (
              <Spoiler
                maxHeight={44}
                showLabel={t('settings.consentMore')}
                hideLabel={t('settings.consentLess')}
              >
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
                  {agreement.content}
                </Text>
              </Spoiler>
            )}
            {marketingConsent.decidedAt && (
              <Text size="xs" c="dimmed" data-testid="settings-marketing-decided">
                {t(marketingConsent.accepted ? 'settings.consentGiven' : 'settings.consentRefused', {
                  date: formatDateLong(marketingConsent.decidedAt, i18n.language, timeZone),
                })}
              </Text>
            )}
          </Stack>
        )}
        <SubmitButton state={form.buttonState} data-testid="settings-save">
          {t('settings.save')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
