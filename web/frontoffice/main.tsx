import { resolveStudioUuid } from '../lib/studio-path';
import { startApp } from '../ui/boot';
import { FrontofficeApp } from './FrontofficeApp';

startApp(
  'frontoffice',
  (pageContext) => (
    <FrontofficeApp studioUuid={resolveStudioUuid(pageContext.studioUuid, window.location.pathname)} />
  ),
  { namespace: 'frontoffice' },
);
