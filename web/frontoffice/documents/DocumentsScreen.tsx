import { useTranslation } from 'react-i18next';
import { StudioDocumentsPage } from '../../features/studio-records/StudioDocumentsPage';
import { useSession } from '../../lib/app-context';
import { SignInFirst } from '../cart/SignInFirst';
import { useStudioUuid } from '../studio';

/** /{uuid}/frontoffice/documents: the studio's published documents and transfer details (clients). */
export function DocumentsScreen() {
  const { t } = useTranslation('studio-admin');
  const studioUuid = useStudioUuid();
  const session = useSession();
  if (!session.userId || !session.sessionId)
    return <SignInFirst back="documents" text={t('front.signIn')} signIn={t('front.signInButton')} />;
  return <StudioDocumentsPage studioUuid={studioUuid} />;
}
