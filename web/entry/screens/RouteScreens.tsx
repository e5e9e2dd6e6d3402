import { Button, Group, Loader, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useRouteError } from 'react-router-dom';
import { EntryCard, EntryPage } from '../components/EntryPage';
import { decideEntryRoute } from '../entry-routes';
import { useReportError } from '../reporting';

/**
 * `/` and every path that is not an entry screen (spec §2): `/` → /login; any other first path
 * segment is a studio uuid, and the browser loads that studio's front office (served by the server,
 * hence a full page load, replacing this history entry so Back does not bounce here again).
 */
export function FirstSegmentRoute() {
  const location = useLocation();
  const decision = decideEntryRoute(location.pathname);
  if (decision.kind === 'studio') return <StudioRedirect href={decision.href} />;
  const to = decision.kind === 'navigate' ? decision.to : `/${decision.screen}`;
  return <Navigate to={{ pathname: to, search: location.search }} replace />;
}

function StudioRedirect({ href }: { href: string }) {
  const { t } = useTranslation('entry');
  useEffect(() => {
    window.location.replace(href);
  }, [href]);
  return (
    <EntryPage pageTitle={t('studioRedirect.pageTitle')}>
      <EntryCard title={t('studioRedirect.title')} testId="studio-redirect">
        <Group gap="sm" wrap="nowrap">
          <Loader size="sm" type="dots" />
          <Text>{t('studioRedirect.text')}</Text>
        </Group>
      </EntryCard>
    </EntryPage>
  );
}

/** A screen failed to render: the error goes to the log, the user gets the general message. */
export function RouteErrorScreen() {
  const { t } = useTranslation('entry');
  const error = useRouteError();
  const report = useReportError();
  useEffect(() => {
    report(error, 'render');
  }, [error, report]);
  return (
    <EntryPage pageTitle={t('title')}>
      <EntryCard title={t('errors.title')} testId="route-error">
        <Text role="alert">{t('errors.general', { code: '100-100' })}</Text>
        <Button onClick={() => window.location.reload()}>{t('actions.retry')}</Button>
      </EntryCard>
    </EntryPage>
  );
}
