import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { KioskStationState, StationState } from '../../shared/contracts/ipc';
import { isLocale } from '../../shared/i18n/locales';
import type { CredentialStorage } from '../../web/entry/kiosk-credentials';
import { KioskApiClient } from '../../web/kiosk/kiosk-api';
import { KioskApp, type KioskAppHost } from '../../web/kiosk/KioskApp';
import { KioskDeviceStore } from '../../web/kiosk/kiosk-device-store';
import { call } from './bridge';
import { DesktopApp } from './DesktopApp';
import { createIpcFetch } from './ipc-fetch';
import { useDesktop } from './station.api';

/** What the web kiosk would keep in local storage; main keeps the real key and session (kiosk.json). */
function memoryStorage(): CredentialStorage {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}

/**
 * The desktop in kiosk mode (DESKTOP_MODE=kiosk): the web kiosk's own screens (web/kiosk, not a copy),
 * their calls sent to main over `kioskRequest`. A station nobody has set up yet shows the desk's
 * sign-in once (staff register the station, so its mirror and outbox exist); then the kiosk asks for
 * its key — the studio is the station's — and main locks the desk: the kiosk never acts as staff.
 */
export function DesktopKiosk({
  initialState,
  kiosk,
}: {
  initialState: StationState;
  kiosk: KioskStationState;
}) {
  const { bridge } = useDesktop();
  const { i18n } = useTranslation();
  const { data: state } = useQuery({
    queryKey: ['station', 'kiosk'],
    queryFn: () => call(bridge, 'kioskState', {}),
    initialData: kiosk,
    refetchInterval: (query) => (query.state.data?.stationReady ? false : 2_000),
  });
  const { data: station } = useQuery({
    queryKey: ['station', 'kiosk-studio'],
    queryFn: () => call(bridge, 'stationState', {}),
    initialData: initialState,
    refetchInterval: (query) => (query.state.data?.device ? false : 2_000),
  });

  // The kiosk's language is the station's: main prints the slip in it.
  useEffect(() => {
    const onChange = (language: string) => {
      if (isLocale(language)) void bridge.stationSetLocale({ locale: language });
    };
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [bridge, i18n]);

  const studioUuid = station.device?.studioUuid ?? null;
  const host = useMemo<KioskAppHost | null>(() => {
    if (!studioUuid) return null;
    const kioskId = kiosk.kioskId ?? 'default';
    const storage = memoryStorage();
    // Signed in already (main holds the session): the kiosk starts with `me`, not the key form.
    if (kiosk.signedIn) storage.setItem(`studio.platform.kiosk.session.${kioskId}`, 'station');
    const api = new KioskApiClient(
      {
        session: { userId: null, sessionId: null, token: 'station' },
        fetch: createIpcFetch(bridge, globalThis.fetch.bind(globalThis), 'kioskRequest'),
      },
      studioUuid,
    );
    return {
      where: { uuid: studioUuid, kioskId, keyFromLink: null },
      store: new KioskDeviceStore(storage),
      api,
      camera: false,
    };
  }, [bridge, kiosk.kioskId, kiosk.signedIn, studioUuid]);

  if (!state.stationReady || !host) return <DesktopApp initialState={initialState} />;
  return <KioskApp host={host} />;
}
