import { useTranslation } from 'react-i18next';
import { EmailLookup } from '../components/EmailLookup';
import { EntryPage } from '../components/EntryPage';

/**
 * /delete (spec §2 "Account deletion"): the email step; the studio's login then leads to the
 * front office's profile deletion (redirectAfterLogin = profile/delete).
 */
export function DeleteScreen() {
  const { t } = useTranslation('entry');
  return (
    <EntryPage pageTitle={t('delete.pageTitle')}>
      <EmailLookup purpose="delete" />
    </EntryPage>
  );
}
