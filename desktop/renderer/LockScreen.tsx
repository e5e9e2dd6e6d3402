import {
  Anchor,
  Avatar,
  Box,
  Container,
  Group,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationStaff, StationState } from '../../shared/contracts/ipc';
import { FormErrorList } from '../../web/ui/FormErrorList';
import { LanguageSwitch } from '../../web/ui/LanguageSwitch';
import { SubmitButton } from '../../web/ui/SubmitButton';
import { useServerForm } from '../../web/ui/use-server-form';
import { call } from './bridge';
import { STATION_ERROR_MESSAGES } from './station-errors';
import { stationKeys, useDesktop } from './station.api';
import { useQueryClient } from '@tanstack/react-query';

/** Locked station: switch to someone with a PIN, or sign in with email and password. */
export function LockScreen({
  state,
  onSignedIn,
}: {
  state: StationState;
  onSignedIn: (state: StationState) => void;
}) {
  const { t } = useTranslation('desktop');
  const [mode, setMode] = useState<'pin' | 'password'>(state.switchable.length > 0 ? 'pin' : 'password');
  const showPin = mode === 'pin' && state.switchable.length > 0;

  return (
    <Box className="desktop-lock-screen" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="md" py="sm">
          <Group justify="space-between" wrap="nowrap">
            <div>
              <Title order={1} size="h4">
                {t('title')}
              </Title>
              <Text size="sm" c="dimmed" data-testid="lock-studio">
                {state.device
                  ? t('lock.stationOf', { studio: state.device.studioName })
                  : t('lock.newStation')}
              </Text>
            </div>
            <LanguageSwitch />
          </Group>
        </Container>
      </Box>
      <Container size="md" py="xl">
        {showPin ? (
          <PinSwitch staff={state.switchable} onPassword={() => setMode('password')} />
        ) : (
          <StationSignIn
            state={state}
            onSignedIn={onSignedIn}
            {...(state.switchable.length > 0 ? { onPin: () => setMode('pin') } : {})}
          />
        )}
      </Container>
    </Box>
  );
}

function StationSignIn({
  state,
  onSignedIn,
  onPin,
}: {
  state: StationState;
  onSignedIn: (state: StationState) => void;
  onPin?: () => void;
}) {
  const { t } = useTranslation('desktop');
  const { bridge } = useDesktop();
  const queryClient = useQueryClient();
  const [studios, setStudios] = useState<{ studioUuid: string; studioName: string }[] | null>(null);
  const [studioUuid, setStudioUuid] = useState<string | null>(null);
  const registering = !state.registered;
  const form = useServerForm({
    initialValues: { emailAddress: '', password: '', stationName: '' },
    keepWhitespace: ['password'],
    submit: (values) =>
      call(bridge, 'stationSignIn', {
        emailAddress: values.emailAddress,
        password: values.password,
        ...(registering && values.stationName ? { stationName: values.stationName } : {}),
        ...(registering && studioUuid ? { studioUuid } : {}),
      }),
    onSuccess: (result) => {
      if (result.outcome === 'chooseStudio') {
        setStudios(result.studios);
        return;
      }
      queryClient.setQueryData(stationKeys.state, result.state);
      onSignedIn(result.state);
    },
    errorOptions: { unexpected: 'withCode', messagesByKey: STATION_ERROR_MESSAGES },
  });

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={440} mx="auto" data-testid="station-sign-in">
      <form {...form.formProps}>
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              {registering ? t('signIn.titleNew') : t('signIn.title')}
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              {registering ? t('signIn.subtitleNew') : t('signIn.subtitle')}
            </Text>
          </div>
          <FormErrorList errors={form.formErrors} />
          <TextInput
            {...form.getInputProps('emailAddress')}
            type="email"
            label={t('common:auth.email')}
            autoComplete="username"
            required
            autoFocus
          />
          <PasswordInput
            {...form.getInputProps('password')}
            label={t('common:auth.password')}
            autoComplete="current-password"
            required
          />
          {registering ? (
            <TextInput
              {...form.getInputProps('stationName')}
              label={t('signIn.stationName')}
              description={t('signIn.stationNameHint')}
              maxLength={80}
            />
          ) : null}
          {registering && studios ? (
            <Select
              label={t('signIn.studio')}
              description={t('signIn.chooseStudio')}
              data={studios.map((s) => ({ value: s.studioUuid, label: s.studioName }))}
              value={studioUuid}
              onChange={setStudioUuid}
              required
              data-testid="station-studio"
            />
          ) : null}
          <SubmitButton state={form.buttonState} fullWidth data-testid="station-sign-in-submit">
            {t('common:auth.signIn')}
          </SubmitButton>
          {onPin ? (
            <Anchor component="button" type="button" size="sm" onClick={onPin} data-testid="use-pin">
              {t('signIn.usePin')}
            </Anchor>
          ) : null}
        </Stack>
      </form>
    </Paper>
  );
}

const initials = (s: StationStaff) => `${s.firstName.charAt(0)}${s.lastName.charAt(0)}`.toUpperCase();

function PinSwitch({ staff, onPassword }: { staff: StationStaff[]; onPassword: () => void }) {
  const { t } = useTranslation('desktop');
  const [chosen, setChosen] = useState<StationStaff | null>(staff.length === 1 ? (staff[0] ?? null) : null);

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={560} mx="auto" data-testid="pin-switch">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {t('pin.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('pin.subtitle')}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
          {staff.map((person) => {
            const selected = chosen?.userId === person.userId;
            return (
              <UnstyledButton
                key={person.userId}
                onClick={() => setChosen(person)}
                aria-pressed={selected}
                data-testid={`pin-person-${person.emailAddress}`}
                p="sm"
                style={{
                  borderRadius: 'var(--mantine-radius-md)',
                  border: `2px solid ${selected ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-gray-3)'}`,
                  background: selected ? 'var(--mantine-primary-color-light)' : 'white',
                }}
              >
                <Group gap="sm" wrap="nowrap">
                  <Avatar color="studio" radius="xl">
                    {initials(person)}
                  </Avatar>
                  <Text size="sm" fw={500} lineClamp={2}>
                    {person.firstName} {person.lastName}
                  </Text>
                </Group>
              </UnstyledButton>
            );
          })}
        </SimpleGrid>
        {chosen ? <PinForm key={chosen.userId} person={chosen} /> : null}
        <Anchor component="button" type="button" size="sm" onClick={onPassword} data-testid="use-password">
          {t('pin.usePassword')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

function PinForm({ person }: { person: StationStaff }) {
  const { t } = useTranslation('desktop');
  const { bridge } = useDesktop();
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: { pin: '' },
    submit: (values) => call(bridge, 'stationSwitchStaff', { userId: person.userId, pin: values.pin }),
    onSuccess: (state) => queryClient.setQueryData(stationKeys.state, state),
    onError: () => void queryClient.invalidateQueries({ queryKey: stationKeys.state }),
    errorOptions: { unexpected: 'withCode', messagesByKey: STATION_ERROR_MESSAGES },
  });
  return (
    <form {...form.formProps} data-testid="pin-form">
      <Stack gap="sm">
        <FormErrorList errors={form.formErrors} />
        <PasswordInput
          {...form.getInputProps('pin')}
          label={t('pin.label', { name: `${person.firstName} ${person.lastName}` })}
          inputMode="numeric"
          autoComplete="off"
          maxLength={8}
          autoFocus
          required
          data-testid="pin-input"
        />
        <SubmitButton state={form.buttonState} fullWidth data-testid="pin-submit">
          {t('pin.submit')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
