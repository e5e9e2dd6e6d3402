import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { KioskCheckInResult, KioskClient, KioskDevice } from '../../shared/contracts/api/kiosk';
import { ApiError } from '../lib/api-client';
import { usePageContext } from '../lib/app-context';
import { CopyrightFooter } from '../ui/CopyrightFooter';
import { LanguageSwitch } from '../ui/LanguageSwitch';
import { useDocumentTitle } from '../ui/use-document-title';
import { useEditorForm } from '../ui/use-editor-form';
import { KioskApiClient } from './kiosk-api';
import { KioskDeviceStore, kioskLocation } from './kiosk-device-store';
import { cameraAvailable } from './QrCamera';
import { ClientScreen } from './screens/ClientScreen';
import { DoneScreen } from './screens/DoneScreen';
import { NameScreen } from './screens/NameScreen';
import { StartScreen } from './screens/StartScreen';
import { useIdleReset } from './use-idle-reset';
import { StudioLogo, useApplyBranding, useStudioAppearance } from '../features/branding/StudioBranding';
import { useStudioInterfaceTexts } from '../features/translations/StudioInterfaceTexts';

type Boot =
  | { state: 'loading' }
  | { state: 'unauthorized'; rejected: boolean }
  | { state: 'error' }
  | { state: 'ready'; kiosk: KioskDevice };

export type Screen =
  | { name: 'start' }
  | { name: 'byName' }
  | { name: 'client'; client: KioskClient }
  | { name: 'done'; client: KioskClient; result: KioskCheckInResult };

/** What the desktop app in kiosk mode passes in (desktop/renderer/DesktopKiosk.tsx); the web reads the address. */
export interface KioskAppHost {
  where: { uuid: string; kioskId: string; keyFromLink: string | null };
  store: KioskDeviceStore;
  /** Its calls go to the desktop's main process, which keeps the session and answers offline. */
  api: KioskApiClient;
  /** The desktop denies every permission (camera too): its kiosk reads QR codes with a scanner. */
  camera: boolean;
}

/**
 * The kiosk at /{uuid}/kiosk/{kioskId}: signs itself in with the stored key (or the key a set-up QR
 * code carried), then runs the check-in screens, and goes back to the start after a quiet while.
 */
export function KioskApp({ host }: { host?: KioskAppHost } = {}) {
  const { t } = useTranslation('kiosk');
  useDocumentTitle(t('title'));
  const context = usePageContext();
  const where = useMemo(() => host?.where ?? kioskLocation(window.location), [host]);
  const store = useMemo(() => host?.store ?? new KioskDeviceStore(), [host]);
  const api = useMemo(
    () =>
      host?.api ??
      new KioskApiClient({ session: { userId: null, sessionId: null, token: context.token } }, where.uuid),
    [context.token, host, where.uuid],
  );
  const [boot, setBoot] = useState<Boot>({ state: 'loading' });
  const [screen, setScreen] = useState<Screen>({ name: 'start' });

  const signIn = useCallback(
    async (key: string, remember: boolean) => {
      try {
        const result = await api.signIn(where.kioskId, key);
        api.setKioskToken(result.token);
        store.saveToken(where.kioskId, result.token);
        if (remember) store.saveKey(where.uuid, where.kioskId, key);
        setBoot({ state: 'ready', kiosk: result.kiosk });
      } catch (error) {
        if (error instanceof ApiError && [400, 403, 404].includes(error.status)) {
          store.forgetKey(where.uuid, where.kioskId);
          setBoot({ state: 'unauthorized', rejected: true });
        } else setBoot({ state: 'error' });
      }
    },
    [api, store, where],
  );

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      if (where.keyFromLink) {
        // Keep the key, drop it from the address bar (and from the history).
        window.history.replaceState(null, '', window.location.pathname);
        await signIn(where.keyFromLink, true);
        return;
      }
      const token = store.token(where.kioskId);
      if (token) {
        api.setKioskToken(token);
        try {
          const kiosk = await api.me();
          if (!cancelled) setBoot({ state: 'ready', kiosk });
          return;
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 401)) {
            if (!cancelled) setBoot({ state: 'error' });
            return;
          }
          api.setKioskToken(null);
          store.saveToken(where.kioskId, null);
        }
      }
      const key = store.keyFor(where.uuid, where.kioskId);
      if (key) await signIn(key, false);
      else if (!cancelled) setBoot({ state: 'unauthorized', rejected: false });
    })();
    return () => {
      cancelled = true;
    };
  }, [api, signIn, store, where]);

  const kiosk = boot.state === 'ready' ? boot.kiosk : null;
  const appearance = useStudioAppearance(where.uuid).data;
  useApplyBranding(appearance);
  useStudioInterfaceTexts(where.uuid);
  const reset = useCallback(() => setScreen({ name: 'start' }), []);
  useIdleReset(screen.name !== 'start' && kiosk !== null, kiosk?.settings.idleSeconds ?? 45, reset);

  let body;
  if (boot.state === 'loading')
    body = (
      <Center h="60vh">
        <Loader size="xl" />
      </Center>
    );
  else if (boot.state === 'error')
    body = (
      <Center h="60vh">
        <Alert color="red" title={t('signIn.errorTitle')} data-testid="kiosk-error">
          <Stack>
            <Text>{t('signIn.error')}</Text>
            <Button size="lg" onClick={() => window.location.reload()}>
              {t('signIn.retry')}
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  else if (boot.state === 'unauthorized')
    body = <SignInForm rejected={boot.rejected} onSubmit={(key) => signIn(key, true)} />;
  else if (screen.name === 'start')
    body = (
      <StartScreen
        kiosk={boot.kiosk}
        api={api}
        onFound={(client) => setScreen({ name: 'client', client })}
        onByName={() => setScreen({ name: 'byName' })}
        camera={host ? host.camera : cameraAvailable()}
      />
    );
  else if (screen.name === 'byName')
    body = (
      <NameScreen api={api} onFound={(client) => setScreen({ name: 'client', client })} onBack={reset} />
    );
  else if (screen.name === 'client')
    body = (
      <ClientScreen
        api={api}
        kiosk={boot.kiosk}
        client={screen.client}
        onDone={(result) => setScreen({ name: 'done', client: screen.client, result })}
        onBack={reset}
      />
    );
  else body = <DoneScreen client={screen.client} result={screen.result} kiosk={boot.kiosk} onBack={reset} />;

  return (
    <Box mih="100vh" bg="gray.0" style={{ display: 'flex', flexDirection: 'column' }} data-testid="kiosk-app">
      <Group
        justify="space-between"
        px="lg"
        py="md"
        bg="white"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Group gap="md" wrap="nowrap">
          <StudioLogo appearance={appearance} height={48} />
          <Title order={1} size="h3" data-testid="kiosk-studio-name">
            {kiosk ? kiosk.studio.name : t('title')}
          </Title>
        </Group>
        <LanguageSwitch size="lg" />
      </Group>
      <Box p={{ base: 'md', sm: 'xl' }} style={{ flex: 1 }}>
        <Box maw={{ base: 960, xl: 1200 }} mx="auto">
          {body}
        </Box>
      </Box>
      <CopyrightFooter />
    </Box>
  );
}

/** No key, or a refused one: the kiosk asks for this kiosk's key (spec §8: "invalid uuid or kiosk key"). */
function SignInForm({ rejected, onSubmit }: { rejected: boolean; onSubmit: (key: string) => Promise<void> }) {
  const { t } = useTranslation('kiosk');
  const { values, set } = useEditorForm(() => ({ key: '' }));
  const { key } = values;
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim()) return;
    setBusy(true);
    await onSubmit(key.trim());
    setBusy(false);
  };
  return (
    <Paper withBorder radius="lg" p="xl" maw={560} mx="auto" data-testid="kiosk-sign-in">
      <form onSubmit={submit}>
        <Stack gap="lg">
          <Title order={2}>{t('signIn.title')}</Title>
          <Text c="dimmed">{t('signIn.text')}</Text>
          <PasswordInput
            size="xl"
            label={t('signIn.key')}
            value={key}
            onChange={(e) => set('key', e.currentTarget.value)}
            error={rejected ? t('signIn.invalid') : undefined}
            data-testid="kiosk-key"
            autoFocus
          />
          <Button type="submit" size="xl" loading={busy} data-testid="kiosk-sign-in-submit">
            {t('signIn.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
