import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSyncStatus } from './station.api';

/** How long "Back online" stays after the cloud answers again. */
const BACK_ONLINE_MS = 8_000;

/**
 * Offline is obvious (issue 26): a red bar across the window above the status bar, saying what still
 * works; when the cloud answers again, a green "Back online" in its place for a few seconds. The
 * status bar's badge alone was easy to miss.
 */
export function ConnectionBar() {
  const { t } = useTranslation('desk');
  const online = useSyncStatus().data?.online;
  const [backOnline, setBackOnline] = useState(false);
  // The online state changed since the last render: back online after offline shows the notice.
  const [previous, setPrevious] = useState(online);
  if (previous !== online) {
    setPrevious(online);
    setBackOnline(online === true && previous === false);
  }
  useEffect(() => {
    if (!backOnline) return;
    const timer = setTimeout(() => setBackOnline(false), BACK_ONLINE_MS);
    return () => clearTimeout(timer);
  }, [backOnline]);
  const state = online === false ? 'offline' : backOnline ? 'online' : null;
  useEffect(() => {
    document.documentElement.classList.toggle('desk-connection-bar', state !== null);
    return () => document.documentElement.classList.remove('desk-connection-bar');
  }, [state]);
  if (state === null) return null;
  return (
    <div
      className="desktop-connection-bar"
      role={state === 'offline' ? 'alert' : 'status'}
      data-state={state}
      data-testid={state === 'offline' ? 'offline-bar' : 'online-again'}
    >
      {state === 'offline' ? t('offline.bar') : t('offline.back')}
    </div>
  );
}
