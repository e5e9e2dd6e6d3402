import { Alert, Checkbox, Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccountSettings } from '../../../shared/contracts/api/client-accounts';
import { LOCALES, type Locale } from '../../../shared/i18n/locales';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';
import { accountKeys, saveSettings, useSettings } from './account.api';
import { PushDevice } from './PushDevice';

const CHANNELS = ['email', 'sms', 'push'] as const;
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', pl: 'Polski' };

/** `settings`: language (applied at once) and how the studio may notify the client. */
export function SettingsScreen() {
  const { t } = useTranslation('account');
  const settings = useSettings();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="account-settings">
      {settings.isPending ? (
        <Loader size="sm" />
      ) : !settings.data ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </Paper>
  );
}

function SettingsForm({ settings }: { settings: AccountSettings }) {
  const { t, i18n } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const flag = (on: boolean) => (on ? 'true' : '');
  const form = useServerForm({
    initialValues: {
      locale: settings.locale ?? (i18n.language === 'pl' ? 'pl' : 'en'),
      'notifications.email': flag(settings.notifications.email),
      'notifications.sms': flag(settings.notifications.sms),
      'notifications.push': flag(settings.notifications.push),
    },
    submit: (v) =>
      saveSettings(api, studio, {
        locale: v.locale as Locale,
        notifications: {
          email: v['notifications.email'] === 'true',
          sms: v['notifications.sms'] === 'true',
          push: v['notifications.push'] === 'true',
        },
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(accountKeys.settings(studio), saved);
      if (saved.locale && saved.locale !== i18n.language) void i18n.changeLanguage(saved.locale);
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
        <SubmitButton state={form.buttonState} data-testid="settings-save">
          {t('settings.save')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
