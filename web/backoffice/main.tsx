import { resolveStudioUuid } from '../lib/studio-path';
import { startApp } from '../ui/boot';
import { BackofficeApp } from './BackofficeApp';

startApp(
  'backoffice',
  (pageContext) => (
    <BackofficeApp studioUuid={resolveStudioUuid(pageContext.studioUuid, window.location.pathname)} />
  ),
  { namespace: 'backoffice' },
);
