import { Alert, Center, Loader, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  type CURRENCIES,
  StudioProfilePatchSchema,
  type StudioProfile,
} from '../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { FormSelect } from '../../ui/FormSelect';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';
import { useSettingsSaved, useStudioSettings } from './studio-admin.api';
import { regionalOptions } from './regional-options';
import { ShowSetupAgain } from './SetupCard';
import { StudioTimeNow } from './StudioTimeNow';

/** Settings → Studio: the studio's name, legal and contact details, address, language, currency, zone, URL. */
export function StudioProfileScreen() {
  const { t } = useTranslation('studio-admin');
  const settings = useStudioSettings();
  return (
    <SettingsLayout page="studio">
      {settings.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !settings.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="md">
          <ShowSetupAgain />
          <ProfileForm profile={settings.data.profile} />
        </Stack>
      )}
    </SettingsLayout>
  );
}

function ProfileForm({ profile }: { profile: StudioProfile }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const saved = useSettingsSaved();
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const { uuid: _uuid, ...values } = profile;
  const form = useServerForm({
    initialValues: values,
    schema: StudioProfilePatchSchema,
    submit: (body) =>
      api.call(StudioAdminApi.patchStudio, {
        params: { uuid: profile.uuid },
        body: {
          ...body,
          currency: body.currency as (typeof CURRENCIES)[number],
          defaultLocale: body.defaultLocale as 'en' | 'pl',
        },
      }),
    onSuccess: saved,
  });
  const input = (
    name: Exclude<keyof StudioProfile, 'uuid'>,
    extra: { type?: string; required?: boolean } = {},
  ) => (
    <TextInput {...form.getInputProps(name)} label={t(`profile.${name}`)} readOnly={!canEdit} {...extra} />
  );
  const select = (
    name: 'currency' | 'defaultLocale' | 'timeZone',
    data: { value: string; label: string }[],
  ) => (
    <FormSelect
      of={form}
      name={name}
      label={t(`profile.${name}`)}
      data={data}
      readOnly={!canEdit}
      data-testid={`profile-${name}`}
    />
  );
  const regional = regionalOptions(t, profile.timeZone);
  return (
    <form {...form.formProps} data-testid="studio-profile-form">
      <Stack gap="lg">
        <FormErrorList errors={form.formErrors} />
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text fw={600}>{t('profile.identity')}</Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input('name', { required: true })}
              {input('legalName')}
              {input('taxId')}
              {input('slug')}
            </SimpleGrid>
          </Stack>
        </Paper>
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text fw={600}>{t('profile.contact')}</Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {input('addressLine')}
              {input('postalCode')}
              {input('city')}
              {input('country')}
              {input('email', { type: 'email' })}
              {input('phone', { type: 'tel' })}
              {input('website')}
            </SimpleGrid>
          </Stack>
        </Paper>
        <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
          <Stack gap="md">
            <Text fw={600}>{t('profile.regional')}</Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {select('defaultLocale', regional.language)}
              {select('currency', regional.currency)}
              {select('timeZone', regional.timeZone)}
            </SimpleGrid>
            <StudioTimeNow testId="profile-time-now" />
          </Stack>
        </Paper>
        {canEdit ? (
          <SubmitButton state={form.buttonState} w="fit-content" data-testid="studio-profile-save">
            {t('save')}
          </SubmitButton>
        ) : null}
      </Stack>
    </form>
  );
}
