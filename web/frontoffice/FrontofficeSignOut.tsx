import { ActionIcon, Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSignOut } from '../features/auth/auth.api';
import { useSession } from '../lib/app-context';

const SIGN_OUT_ICON = 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h11';

function SignOutIcon() {
  return (
    <svg
      width={18}
      height={18}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
    >
      <path d={SIGN_OUT_ICON} />
    </svg>
  );
}

/**
 * Sign-out in the client zone's header, so it is one tap away on every screen (it used to live only
 * on the start page): a labelled button on wider screens, an icon with the same accessible name on
 * phones. Visitors see nothing here (the menu offers them sign-up).
 */
export function FrontofficeSignOut() {
  const { t } = useTranslation('common');
  const session = useSession();
  const signOut = useSignOut();
  if (!session.userId || !session.sessionId) return null;
  const label = t('auth.signOut');
  return (
    <>
      <Button
        visibleFrom="sm"
        variant="subtle"
        size="xs"
        leftSection={<SignOutIcon />}
        onClick={() => signOut.mutate()}
        loading={signOut.isPending}
        data-testid="frontoffice-sign-out"
      >
        {label}
      </Button>
      <ActionIcon
        hiddenFrom="sm"
        variant="subtle"
        size="lg"
        aria-label={label}
        title={label}
        onClick={() => signOut.mutate()}
        loading={signOut.isPending}
        data-testid="frontoffice-sign-out"
      >
        <SignOutIcon />
      </ActionIcon>
    </>
  );
}
