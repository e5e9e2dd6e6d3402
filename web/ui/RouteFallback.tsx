import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Below this a chunk usually arrives: a spinner that flashes for a moment looks like a glitch. */
const SPINNER_DELAY_MS = 250;

/**
 * Suspense fallback where a lazy screen goes (inside the app's layout, which stays on screen).
 * It holds the content area's height, so the footer does not jump up and back down, and shows a
 * spinner only when loading takes a noticeable time. Seen on a first visit by URL only:
 * navigations keep the previous screen until the next one has loaded.
 */
export function RouteFallback() {
  const { t } = useTranslation('common');
  const [spinner, setSpinner] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSpinner(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Center mih="60vh" data-testid="route-loading" aria-busy="true">
      {spinner ? <Loader size="md" aria-label={t('loading')} /> : null}
    </Center>
  );
}
