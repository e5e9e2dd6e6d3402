import { Center, Loader } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StationState } from '../../shared/contracts/ipc';
import { isLocale } from '../../shared/i18n/locales';
import { useApiClient, useSession } from '../../web/lib/app-context';
import { ConnectivityProvider } from '../../web/lib/connectivity';
import { useDocumentTitle } from '../../web/ui/use-document-title';
import { PosStationProvider } from '../../web/backoffice/pos/station-sink';
import { ConnectionBar } from './ConnectionBar';
import { LockScreen } from './LockScreen';
import { createStationPosSink } from './pos-sink';
import { SetPinDialog } from './SetPinDialog';
import { StatusBar } from './StatusBar';
import { sessionFor, stationKeys, useDesktop, useStationState, useSyncStatus } from './station.api';

// The back office loads once someone is signed in at the desk (the lock screen does not need it); its
// screens are lazy routes of their own (web/backoffice/router.tsx).
const BackofficeApp = lazy(() =>
  import('../../web/backoffice/BackofficeApp').then((m) => ({ default: m.BackofficeApp })),
);

/**
 * The station: locked (password sign-in or PIN switch) or the back office of the station's studio,
 * always with the status bar (online state, changes waiting to sync, last sync, who is working).
 */
export function DesktopApp({ initialState }: { initialState: StationState }) {
  const { t, i18n } = useTranslation('desktop');
  const { bridge } = useDesktop();
  const api = useApiClient();
  const session = useSession();
  const queryClient = useQueryClient();
  const { data: state } = useStationState(initialState);
  const [pinDialog, setPinDialog] = useState(false);
  // The back office's POS sells through the station (recorded locally, fiscal printer, offline).
  const posSink = useMemo(() => createStationPosSink(bridge), [bridge]);
  const staffId = state.staff?.userId ?? null;
  useDocumentTitle(t('title'));

  // Another person at the desk: nothing loaded for the previous one may be shown to them.
  useEffect(() => {
    if (api.getSession().userId === staffId) return;
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'station' });
    // …and each person starts on their own dashboard, not on the screen the last one left open.
    if (window.location.hash && window.location.hash !== '#/') window.history.replaceState(null, '', '#/');
    api.setSession(sessionFor(state));
  }, [api, queryClient, staffId, state]);

  // The web screens drop the session on a 401 (expired on the cloud): main has forgotten it too.
  useEffect(
    () =>
      api.subscribe(() => {
        if (!api.isSignedIn) void queryClient.invalidateQueries({ queryKey: stationKeys.state });
      }),
    [api, queryClient],
  );

  // Everything done offline is confirmed: screens loaded from the station's copy (provisional marks,
  // the desk's guesses) load again from the cloud.
  const syncPending = useSyncStatus().data?.pending;
  const hadPending = useRef(false);
  useEffect(() => {
    if (syncPending === 0 && hadPending.current)
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'station' });
    hadPending.current = (syncPending ?? 0) > 0;
  }, [syncPending, queryClient]);

  // Back online: what failed while the cloud was away loads again without a click.
  const online = useSyncStatus().data?.online;
  const wasOnline = useRef(online);
  useEffect(() => {
    if (online && wasOnline.current === false) {
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== 'station' && query.state.status === 'error',
      });
    }
    wasOnline.current = online;
  }, [online, queryClient]);

  // The language switch of the back office header is remembered by the station.
  useEffect(() => {
    const onChange = (language: string) => {
      if (isLocale(language)) void bridge.stationSetLocale({ locale: language });
    };
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [bridge, i18n]);

  let content;
  if (!state.staff || !state.device) {
    content = (
      <LockScreen
        state={state}
        onSignedIn={(next) => {
          if (next.staff && !next.staff.hasPin) setPinDialog(true);
        }}
      />
    );
  } else if (session.userId !== staffId) {
    content = (
      <Center mih="100dvh">
        <Loader aria-label={t('status.loading')} />
      </Center>
    );
  } else {
    content = (
      // Offline, screens say what the station cannot answer from its copy (web/lib/connectivity.tsx).
      <ConnectivityProvider offline={online === false}>
        <PosStationProvider value={posSink}>
          <Suspense
            fallback={
              <Center mih="100dvh">
                <Loader aria-label={t('status.loading')} />
              </Center>
            }
          >
            <BackofficeApp key={staffId} studioUuid={state.device.studioUuid} />
          </Suspense>
        </PosStationProvider>
      </ConnectivityProvider>
    );
  }

  return (
    <>
      {content}
      <ConnectionBar />
      <StatusBar state={state} onSetPin={() => setPinDialog(true)} />
      <SetPinDialog
        opened={pinDialog && Boolean(state.staff)}
        onClose={() => setPinDialog(false)}
        state={state}
      />
    </>
  );
}
