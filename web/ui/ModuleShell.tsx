import { useTranslation } from 'react-i18next';
import { AppFrame } from './AppFrame';
import { ModuleInProgress } from './ModuleInProgress';
import { useDocumentTitle } from './use-document-title';

/**
 * The whole of an app whose module is not built yet (kiosk, donation, widget): its name, an honest
 * "being built" line, language switch and footer. Texts come from the app's own namespace:
 * `title`, `inProgress.title`, `inProgress.text`.
 */
export function ModuleShell({ namespace }: { namespace: string }) {
  const { t } = useTranslation(namespace);
  useDocumentTitle(t('title'));
  return (
    <AppFrame title={t('title')}>
      <ModuleInProgress
        testId={`${namespace}-in-progress`}
        title={t('inProgress.title')}
        description={t('inProgress.text')}
      />
    </AppFrame>
  );
}
