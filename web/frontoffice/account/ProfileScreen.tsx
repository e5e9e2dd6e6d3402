import {
  Alert,
  Avatar,
  Button,
  FileButton,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
  type ClientProfile,
  type ProfileUpdateInput,
} from '../../../shared/contracts/api/client-accounts';
import { ClientAccountsApi } from '../../../shared/contracts/http/client-accounts';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';
import { accountKeys, useProfile } from './account.api';

/** `profile`: my profile and picture; `profile?user=<id>` a linked child's profile, read only. */
export function ProfileScreen() {
  const { t } = useTranslation('account');
  const [params] = useSearchParams();
  const user = params.get('user');
  const profile = useProfile(user);
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="account-profile">
      {profile.isPending ? (
        <Loader size="sm" />
      ) : !profile.data ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : profile.data.editable ? (
        <EditProfile profile={profile.data} />
      ) : (
        <ReadOnlyProfile profile={profile.data} />
      )}
    </Paper>
  );
}

const fullName = (p: ClientProfile) => `${p.firstName} ${p.lastName}`.trim();

function ReadOnlyProfile({ profile }: { profile: ClientProfile }) {
  const { t } = useTranslation('account');
  const rows: Array<[string, string]> = [
    [t('profile.email'), profile.emailAddress],
    [t('profile.phone'), profile.phone ?? '—'],
    [t('profile.birthDate'), profile.birthDate ?? '—'],
    [t('profile.sex'), profile.sex === null ? t('profile.sexNone') : t(`enums:userSex.${profile.sex}`)],
  ];
  return (
    <Stack gap="md" data-testid="profile-read-only">
      <Group gap="md" wrap="nowrap">
        <Avatar
          src={profile.avatarUrl}
          size={64}
          radius="xl"
          alt={t('profile.avatarAlt', { name: fullName(profile) })}
        />
        <Title order={2} size="h3">
          {t('profile.titleFor', { name: fullName(profile) })}
        </Title>
      </Group>
      <Text size="sm" c="dimmed">
        {t('profile.readOnly')}
      </Text>
      {rows.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text>{value}</Text>
        </div>
      ))}
    </Stack>
  );
}

function EditProfile({ profile }: { profile: ClientProfile }) {
  const { t } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      phone: profile.phone ?? '',
      birthDate: profile.birthDate ?? '',
      sex: profile.sex === null ? '' : String(profile.sex),
    },
    submit: (v) =>
      api.call(ClientAccountsApi.updateProfile, {
        params: { uuid: studio },
        body: {
          firstName: v.firstName,
          lastName: v.lastName,
          phone: v.phone || null,
          birthDate: v.birthDate || null,
          // The select offers the two values the schema takes; the server checks it again.
          sex: v.sex === '' ? null : (Number(v.sex) as ProfileUpdateInput['sex']),
        },
      }),
    onSuccess: (saved) => queryClient.setQueryData(accountKeys.profile(studio, null), saved),
  });
  const sexInput = form.getInputProps('sex');
  return (
    <Stack gap="lg">
      <Title order={2} size="h3">
        {t('profile.title')}
      </Title>
      <AvatarEditor profile={profile} />
      <form {...form.formProps} data-testid="profile-form">
        <Stack gap="md">
          <FormErrorList errors={form.formErrors} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput {...form.getInputProps('firstName')} label={t('profile.firstName')} required />
            <TextInput {...form.getInputProps('lastName')} label={t('profile.lastName')} required />
          </SimpleGrid>
          <TextInput
            label={t('profile.email')}
            value={profile.emailAddress}
            description={t('profile.emailHint')}
            readOnly
          />
          <TextInput {...form.getInputProps('phone')} type="tel" label={t('profile.phone')} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <TextInput
              {...form.getInputProps('birthDate')}
              type="date"
              label={t('profile.birthDate')}
              placeholder={t('profile.birthDatePlaceholder')}
            />
            <Select
              name="sex"
              label={t('profile.sex')}
              value={sexInput.value}
              onChange={(value) => form.setValue('sex', value ?? '')}
              error={sexInput.error}
              data={[
                { value: '', label: t('profile.sexNone') },
                { value: '0', label: t('enums:userSex.0') },
                { value: '1', label: t('enums:userSex.1') },
              ]}
              allowDeselect={false}
              data-testid="profile-sex"
            />
          </SimpleGrid>
          <SubmitButton state={form.buttonState} w={{ base: '100%', sm: 'auto' }} data-testid="profile-save">
            {t('profile.save')}
          </SubmitButton>
        </Stack>
      </form>
    </Stack>
  );
}

const readAsDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });

function AvatarEditor({ profile }: { profile: ClientProfile }) {
  const { t } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const saved = (p: ClientProfile | undefined) => {
    queryClient.setQueryData(accountKeys.profile(studio, null), p ?? { ...profile, avatarUrl: null });
  };
  const upload = useMutation({
    mutationFn: async (file: File) =>
      api.call(ClientAccountsApi.uploadAvatar, {
        params: { uuid: studio },
        body: { dataUrl: await readAsDataUrl(file) },
      }),
    onSuccess: saved,
    onError: () => setError(t('common:errors.savingSettings')),
  });
  const remove = useMutation({
    mutationFn: () => api.call(ClientAccountsApi.removeAvatar, { params: { uuid: studio } }),
    onSuccess: () => saved(undefined),
  });
  const choose = (file: File | null) => {
    setError(null);
    if (!file) return;
    if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return setError(t('profile.avatarType'));
    if (file.size > AVATAR_MAX_BYTES) return setError(t('profile.avatarTooLarge'));
    upload.mutate(file);
  };
  return (
    <Group gap="md" align="center" wrap="nowrap" data-testid="avatar-editor">
      <Avatar
        src={profile.avatarUrl}
        size={80}
        radius={80}
        alt={t('profile.avatarAlt', { name: fullName(profile) })}
        data-testid="avatar-image"
      >
        {(profile.firstName[0] ?? '') + (profile.lastName[0] ?? '')}
      </Avatar>
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {t('profile.avatar')}
        </Text>
        <Group gap="xs">
          <FileButton onChange={choose} accept={AVATAR_TYPES.join(',')}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="light"
                loading={upload.isPending}
                data-testid="avatar-upload"
              >
                {t('profile.avatarChange')}
              </Button>
            )}
          </FileButton>
          {profile.avatarUrl && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => remove.mutate()}
              loading={remove.isPending}
            >
              {t('profile.avatarRemove')}
            </Button>
          )}
        </Group>
        <Text size="xs" c={error ? 'red' : 'dimmed'} role={error ? 'alert' : undefined}>
          {error ?? t('profile.avatarHint')}
        </Text>
      </Stack>
    </Group>
  );
}
