import { Button, Divider, Group, Loader, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { frontOfficePath } from '../../../shared/contracts/routes';
import { usePageContext } from '../../lib/app-context';
import { detectNativePlatform } from '../../ui/native-platform';
import { REDIRECT_DELAY_MS } from '../../ui/timings';
import { EmailLookup } from '../components/EmailLookup';
import { EntryCard, EntryPage } from '../components/EntryPage';
import { ENTRY_PATHS } from '../entry-routes';

/**
 * /login (spec §2 "Login entry"): with a user and a studio already known from the page context it
 * goes to that studio's front office after 300 ms; otherwise the email step. Create account (to
 * /search) exists only inside the mobile apps; a browser gets the hint to ask the studio instead.
 */
export function LoginScreen() {
  const { t } = useTranslation('entry');
  const { userId, studioUuid } = usePageContext();
  return (
    <EntryPage pageTitle={t('login.pageTitle')}>
      {userId && studioUuid ? (
        <KnownUserRedirect studioUuid={studioUuid} />
      ) : (
        <EmailLookup purpose="login" footer={<CreateAccount />} />
      )}
    </EntryPage>
  );
}

function KnownUserRedirect({ studioUuid }: { studioUuid: string }) {
  const { t } = useTranslation('entry');
  useEffect(() => {
    const timer = setTimeout(() => window.location.replace(frontOfficePath(studioUuid)), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [studioUuid]);
  return (
    <EntryCard title={t('login.title')} testId="login-redirecting">
      <Group gap="sm" wrap="nowrap">
        <Loader size="sm" type="dots" />
        <Text>{t('login.redirecting')}</Text>
      </Group>
    </EntryCard>
  );
}

function CreateAccount() {
  const { t } = useTranslation('entry');
  const native = detectNativePlatform() !== null;
  return (
    <>
      <Divider />
      {native ? (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm" c="dimmed">
            {t('login.noAccountYet')}
          </Text>
          <Button component={Link} to={ENTRY_PATHS.search} variant="light" data-testid="create-account">
            {t('actions.createAccount')}
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed" data-testid="contact-studio-hint">
          {t('login.contactStudio')}
        </Text>
      )}
    </>
  );
}
