import { resolveStudioUuid } from '../lib/studio-path';
import { startApp } from '../ui/boot';
import { FrontofficeApp, preloadFrontofficeScreen } from './FrontofficeApp';
import { prefetchFrontoffice } from './prefetch';

startApp(
  'frontoffice',
  (pageContext) => (
    <FrontofficeApp studioUuid={resolveStudioUuid(pageContext.studioUuid, window.location.pathname)} />
  ),
  { namespace: 'frontoffice', prefetch: (start) => prefetchFrontoffice(start, preloadFrontofficeScreen) },
);
