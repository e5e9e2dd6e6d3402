import { resolveStudioUuid } from '../lib/studio-path';
import { startApp } from '../ui/boot';
import { BackofficeApp } from './BackofficeApp';

// Spec §2's page /{uuid}/backoffice/inbox opens the inbox screen of the hash router (§9: hash mode).
if (/\/backoffice\/inbox\/?$/.test(window.location.pathname) && !window.location.hash.slice(1)) {
  window.history.replaceState(null, '', `${window.location.pathname.replace(/\/inbox\/?$/, '')}#/inbox`);
}

startApp(
  'backoffice',
  (pageContext) => (
    <BackofficeApp studioUuid={resolveStudioUuid(pageContext.studioUuid, window.location.pathname)} />
  ),
  { namespace: 'backoffice' },
);
