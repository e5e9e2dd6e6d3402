import {
  Alert,
  Box,
  Button,
  Center,
  ColorInput,
  FileButton,
  Group,
  Image,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PICTURE_TYPES,
  type AppearancePicture,
  type StudioAppearanceView,
} from '../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';
import { readAsDataUrl, useSettingsSaved, useStudioSettings } from './studio-admin.api';

/**
 * Settings → Appearance: the logo and cover (uploaded, resized by the server) and the colours the
 * front office, kiosk, widget, e-mails and PDFs use; a preview shows the header and a button.
 */
export function AppearanceScreen() {
  const { t } = useTranslation('studio-admin');
  const settings = useStudioSettings();
  return (
    <SettingsLayout page="appearance">
      {settings.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !settings.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="lg">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PictureCard type="logo" appearance={settings.data.appearance} />
            <PictureCard type="cover" appearance={settings.data.appearance} />
          </SimpleGrid>
          <ColoursForm appearance={settings.data.appearance} />
        </Stack>
      )}
    </SettingsLayout>
  );
}

function PictureCard({ type, appearance }: { type: AppearancePicture; appearance: StudioAppearanceView }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const saved = useSettingsSaved();
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const [error, setError] = useState<string | null>(null);
  const url = type === 'logo' ? appearance.logoUrl : appearance.coverUrl;
  const params = { uuid: appearance.uuid, type };
  const upload = useMutation({
    mutationFn: async (file: File) =>
      api.call(StudioAdminApi.postAppearancePicture, {
        params,
        body: { dataUrl: await readAsDataUrl(file) },
      }),
    onSuccess: (view) => {
      setError(null);
      saved(view);
    },
    onError: () => setError(t('appearance.uploadError')),
  });
  const remove = useMutation({
    mutationFn: () => api.call(StudioAdminApi.deleteAppearancePicture, { params }),
    onSuccess: saved,
  });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md" data-testid={`appearance-${type}`}>
      <Stack gap="sm">
        <Text fw={600}>{t(`appearance.${type}`)}</Text>
        <Text size="sm" c="dimmed">
          {t(`appearance.${type}Hint`)}
        </Text>
        <Center
          h={type === 'logo' ? 120 : 140}
          bg="gray.0"
          style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}
        >
          {url ? (
            <Image
              src={url}
              alt={t(`appearance.${type}`)}
              h={type === 'logo' ? 100 : 140}
              w={type === 'logo' ? 'auto' : '100%'}
              fit={type === 'logo' ? 'contain' : 'cover'}
              data-testid={`appearance-${type}-image`}
            />
          ) : (
            <Text size="sm" c="dimmed">
              {t('appearance.none')}
            </Text>
          )}
        </Center>
        {error ? (
          <Alert color="red" variant="light" data-testid={`appearance-${type}-error`}>
            {error}
          </Alert>
        ) : null}
        {canEdit ? (
          <Group gap="xs">
            <FileButton accept={PICTURE_TYPES.join(',')} onChange={(file) => file && upload.mutate(file)}>
              {(props) => (
                <Button {...props} loading={upload.isPending} data-testid={`appearance-${type}-upload`}>
                  {url ? t('appearance.replace') : t('appearance.upload')}
                </Button>
              )}
            </FileButton>
            {url ? (
              <Button
                variant="default"
                color="red"
                loading={remove.isPending}
                onClick={() => remove.mutate()}
                data-testid={`appearance-${type}-remove`}
              >
                {t('appearance.remove')}
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}

function ColoursForm({ appearance }: { appearance: StudioAppearanceView }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const saved = useSettingsSaved();
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const form = useServerForm({
    initialValues: { primaryColor: appearance.primaryColor ?? '', accentColor: appearance.accentColor ?? '' },
    submit: (v) =>
      api.call(StudioAdminApi.patchSettings, {
        params: { uuid: appearance.uuid },
        body: { primaryColor: v.primaryColor || null, accentColor: v.accentColor || null },
      }),
    onSuccess: saved,
  });
  const colour = (name: 'primaryColor' | 'accentColor') => {
    const props = form.getInputProps(name);
    return (
      <ColorInput
        name={name}
        label={t(`appearance.${name}`)}
        format="hex"
        value={props.value}
        error={props.error}
        disabled={!canEdit}
        onChange={(value) => form.setValue(name, value)}
        swatches={['#1f8a70', '#0b7285', '#5f3dc4', '#c2255c', '#e8590c', '#2b2d42']}
      />
    );
  };
  const primary = form.values.primaryColor || 'var(--mantine-color-teal-6)';
  return (
    <form {...form.formProps} data-testid="appearance-colours-form">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <Stack gap="md">
          <Text fw={600}>{t('appearance.colours')}</Text>
          <FormErrorList errors={form.formErrors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {colour('primaryColor')}
            {colour('accentColor')}
          </SimpleGrid>
          <Box
            p="md"
            style={{
              border: '1px solid var(--mantine-color-gray-3)',
              borderRadius: 'var(--mantine-radius-md)',
            }}
            data-testid="appearance-preview"
          >
            <Group gap="sm" mb="sm">
              {appearance.logoUrl ? <Image src={appearance.logoUrl} alt="" h={32} w="auto" /> : null}
              <Title order={3} size="h5">
                {appearance.name}
              </Title>
            </Group>
            <Group gap="xs">
              <Button color={primary}>{t('appearance.previewButton')}</Button>
              {form.values.accentColor ? (
                <Button variant="light" color={form.values.accentColor}>
                  {t('appearance.previewAccent')}
                </Button>
              ) : null}
            </Group>
          </Box>
          {canEdit ? (
            <SubmitButton state={form.buttonState} w="fit-content" data-testid="appearance-colours-save">
              {t('save')}
            </SubmitButton>
          ) : null}
        </Stack>
      </Paper>
    </form>
  );
}
