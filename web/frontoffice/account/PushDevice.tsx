import { Alert, Button, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CommunicationApi } from '../../../shared/contracts/http/communication';
import { frontOfficePath } from '../../../shared/contracts/routes';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';

type State = 'unsupported' | 'denied' | 'off' | 'on' | 'busy';

const supported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

/**
 * Push notifications on this device (issue 23): registers the front office's service worker,
 * subscribes the browser with the installation's VAPID key and gives the subscription to the
 * server; "turn off" unsubscribes here and there.
 */
export function PushDevice() {
  const { t } = useTranslation('communication');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [state, setState] = useState<State>(() =>
    !supported() ? 'unsupported' : Notification.permission === 'denied' ? 'denied' : 'busy',
  );
  const [error, setError] = useState(false);
  const scope = `${frontOfficePath(studio)}/`;

  useEffect(() => {
    if (!supported() || Notification.permission === 'denied') return;
    void navigator.serviceWorker
      .getRegistration(scope)
      .then((reg) => reg?.pushManager.getSubscription())
      .then((sub) => setState(sub ? 'on' : 'off'))
      .catch(() => setState('off'));
  }, [scope]);

  const turnOn = async () => {
    setState('busy');
    setError(false);
    try {
      if ((await Notification.requestPermission()) !== 'granted') return setState('denied');
      const reg = await navigator.serviceWorker.register('/api/v4/web-push/sw.js', { scope });
      await navigator.serviceWorker.ready;
      const { publicKey } = await api.call(CommunicationApi.getWebPushKey, { params: { uuid: studio } });
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: Uint8Array.from(atob(publicKey.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
          c.charCodeAt(0),
        ),
      });
      const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      await api.call(CommunicationApi.postPushSubscription, {
        params: { uuid: studio },
        body: { endpoint: json.endpoint, keys: json.keys },
      });
      setState('on');
    } catch {
      setError(true);
      setState('off');
    }
  };

  const turnOff = async () => {
    setState('busy');
    try {
      const reg = await navigator.serviceWorker.getRegistration(scope);
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        await api.call(CommunicationApi.deletePushSubscription, {
          params: { uuid: studio },
          body: { endpoint: sub.endpoint },
        });
        await sub.unsubscribe();
      }
    } finally {
      setState('off');
    }
  };

  return (
    <Group gap="xs" data-testid="push-device">
      <Text size="sm">{t(`push.${state === 'busy' ? 'off' : state}`)}</Text>
      {state === 'off' && (
        <Button size="xs" variant="light" onClick={() => void turnOn()}>
          {t('push.turnOn')}
        </Button>
      )}
      {state === 'on' && (
        <Button size="xs" variant="subtle" onClick={() => void turnOff()}>
          {t('push.turnOff')}
        </Button>
      )}
      {error && (
        <Alert color="red" variant="light" py={4}>
          {t('push.failed')}
        </Alert>
      )}
    </Group>
  );
}
