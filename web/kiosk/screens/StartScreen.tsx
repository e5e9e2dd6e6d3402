import { Alert, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { KioskClient, KioskDevice } from '../../../shared/contracts/api/kiosk';
import { useEditorForm } from '../../ui/use-editor-form';
import type { KioskApiClient } from '../kiosk-api';
import { kioskErrorMessage } from '../kiosk-messages';
import { QrCamera } from '../QrCamera';

/**
 * The start: one big field that a card reader or QR scanner (keyboard wedge: characters + Enter)
 * types into, or a client types their card number; and the way in by name and birth date. The field
 * keeps the focus so a scan works without touching the screen first.
 */
export function StartScreen({
  kiosk,
  api,
  onFound,
  onByName,
  camera = false,
}: {
  kiosk: KioskDevice;
  api: KioskApiClient;
  onFound: (client: KioskClient) => void;
  onByName: () => void;
  /** Offer the camera for QR codes (a browser with one; not the desktop app, which denies it). */
  camera?: boolean;
}) {
  const { t } = useTranslation('kiosk');
  const { values, set } = useEditorForm(() => ({ code: '' }));
  const { code } = values;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const methods = kiosk.settings.checkInMethods;
  const byCode = methods.includes('card') || methods.includes('qr');

  useEffect(() => {
    const refocus = window.setInterval(() => {
      if (document.activeElement === document.body) input.current?.focus();
    }, 1000);
    return () => window.clearInterval(refocus);
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await identify(code.trim());
  };

  const identify = async (value: string) => {
    if (!value || busy) return;
    setBusy(true);
    setError(null);
    try {
      onFound(await api.identify({ method: 'code', code: value }));
    } catch (e) {
      setError(kioskErrorMessage(e, t));
      set('code', '');
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const scanTitle = methods.includes('card')
    ? methods.includes('qr')
      ? t('start.scanCardOrQr')
      : t('start.scanCard')
    : t('start.scanQr');

  return (
    <Stack gap="xl" data-testid="kiosk-start">
      <Title order={2} ta="center" size="h1">
        {t('start.welcome')}
      </Title>
      {error && (
        <Alert color="red" variant="filled" radius="lg" data-testid="kiosk-message">
          <Text size="xl" fw={600}>
            {error}
          </Text>
        </Alert>
      )}
      {byCode && (
        <Paper withBorder radius="lg" p="xl" shadow="sm">
          <form onSubmit={submit}>
            <Stack gap="lg">
              <Title order={3} size="h2">
                {scanTitle}
              </Title>
              <TextInput
                ref={input}
                size="xl"
                autoFocus
                autoComplete="off"
                label={methods.includes('card') ? t('start.cardNumber') : t('start.code')}
                value={code}
                onChange={(e) => set('code', e.currentTarget.value)}
                data-testid="kiosk-code"
                styles={{ input: { height: 72, fontSize: 28 } }}
              />
              <Button type="submit" size="xl" h={80} fz={26} loading={busy} data-testid="kiosk-code-submit">
                {t('start.submit')}
              </Button>
            </Stack>
          </form>
        </Paper>
      )}
      {camera && methods.includes('qr') && <QrCamera onCode={(scanned) => void identify(scanned.trim())} />}
      {methods.includes('name') && (
        <Button
          size="xl"
          h="auto"
          mih={80}
          py="md"
          fz={22}
          variant="light"
          onClick={onByName}
          data-testid="kiosk-by-name"
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
        >
          {t('start.byName')}
        </Button>
      )}
    </Stack>
  );
}
