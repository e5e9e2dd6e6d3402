import { Alert, Anchor, Button, Code, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useMe, useSignOut } from '../../features/auth/auth.api';
import { usePageContext, useSession } from '../../lib/app-context';
import { accountChoices, fileTarget } from '../app-pages';
import { EntryCard, EntryPage } from '../components/EntryPage';
import { ENTRY_PATHS } from '../entry-routes';
import { KioskCredentialStore, browserLocalStorage } from '../kiosk-credentials';

/**
 * `/app/auth/facebook/callback`: where Facebook would send a person back after signing in with it.
 * This server has no Facebook sign-in configured (no app id or secret exists in its settings), so
 * the page says so plainly and offers the ordinary sign-in instead of an empty entry app.
 */
export function FacebookCallbackScreen() {
  const { t } = useTranslation('entry');
  return (
    <EntryPage pageTitle={t('appPages.facebook.title')}>
      <EntryCard title={t('appPages.facebook.title')} testId="facebook-callback">
        <Alert color="orange" variant="light" role="alert">
          {t('appPages.facebook.notConfigured')}
        </Alert>
        <Group>
          <Button component={Link} to={ENTRY_PATHS.login}>
            {t('appPages.toLogin')}
          </Button>
        </Group>
      </EntryCard>
    </EntryPage>
  );
}

/** `/app/switch-account`: the signed-in person picks a back office or client zone, or signs out. */
export function SwitchAccountScreen() {
  const { t } = useTranslation('entry');
  const session = useSession();
  const me = useMe();
  const signOut = useSignOut(ENTRY_PATHS.login);
  if (!session.userId || !session.sessionId) return <Navigate to={ENTRY_PATHS.login} replace />;
  const choices = me.data ? accountChoices(me.data) : [];
  return (
    <EntryPage pageTitle={t('appPages.switch.title')}>
      <EntryCard
        title={t('appPages.switch.title')}
        subtitle={me.data ? t('appPages.switch.signedInAs', { email: me.data.emailAddress }) : undefined}
        testId="switch-account"
      >
        {me.isPending ? (
          <Loader size="sm" />
        ) : me.error ? (
          <Alert color="red" variant="light">
            {t('errors.general', { code: '100-100' })}
          </Alert>
        ) : choices.length === 0 ? (
          <Text c="dimmed">{t('appPages.switch.none')}</Text>
        ) : (
          <Stack gap="xs" data-testid="switch-account-choices">
            {choices.map((choice) => (
              <Button
                key={`${choice.kind}-${choice.studioUuid}`}
                component="a"
                href={choice.href}
                variant="default"
                justify="space-between"
                fullWidth
                rightSection={
                  <Text size="xs" c="dimmed">
                    {t(`appPages.switch.${choice.kind}`)}
                  </Text>
                }
                data-testid="switch-account-choice"
              >
                {choice.studioName}
              </Button>
            ))}
          </Stack>
        )}
        <Button
          variant="subtle"
          loading={signOut.isPending}
          onClick={() => signOut.mutate()}
          data-testid="switch-account-sign-out"
        >
          {t('appPages.switch.other')}
        </Button>
      </EntryCard>
    </EntryPage>
  );
}

/** `/app/file?url=…&name=…`: open or save a file of this site (a native shell's downloads). */
export function FileScreen() {
  const { t } = useTranslation('entry');
  const location = useLocation();
  const target = fileTarget(location.search);
  return (
    <EntryPage pageTitle={t('appPages.file.title')}>
      <EntryCard title={t('appPages.file.title')} testId="app-file">
        {target ? (
          <>
            <Text style={{ overflowWrap: 'anywhere' }} data-testid="app-file-name">
              {target.name}
            </Text>
            <Group>
              <Button component="a" href={target.url} download={target.name} data-testid="app-file-download">
                {t('appPages.file.download')}
              </Button>
              <Button component="a" href={target.url} target="_blank" rel="noopener" variant="default">
                {t('appPages.file.open')}
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Alert color="orange" variant="light" role="alert" data-testid="app-file-missing">
              {t('appPages.file.missing')}
            </Alert>
            <Anchor component={Link} to={ENTRY_PATHS.login}>
              {t('appPages.toLogin')}
            </Anchor>
          </>
        )}
      </EntryCard>
    </EntryPage>
  );
}

/**
 * `/app/devtools`: what support asks for when something goes wrong on a device — the version,
 * environment, language, platform and whether someone is signed in — to copy, and a way to make a
 * kiosk forget its stored key.
 */
export function DevtoolsScreen() {
  const { t } = useTranslation('entry');
  const context = usePageContext();
  const session = useSession();
  const [store] = useState(() => new KioskCredentialStore(browserLocalStorage()));
  const [kiosk, setKiosk] = useState(() => store.load());
  const [copied, setCopied] = useState(false);
  const platform = document.body.classList.contains('platform-android')
    ? 'Android'
    : document.body.classList.contains('platform-ios')
      ? 'iOS'
      : t('appPages.devtools.browser');
  const rows: Array<[string, string]> = [
    [t('appPages.devtools.version'), context.version],
    [t('appPages.devtools.environment'), context.environment],
    [t('appPages.devtools.language'), context.locale],
    [t('appPages.devtools.platform'), platform],
    [t('appPages.devtools.user'), session.userId ?? t('appPages.devtools.signedOut')],
    [t('appPages.devtools.kiosk'), kiosk ? kiosk.uuid : t('appPages.devtools.none')],
    [t('appPages.devtools.browserAgent'), navigator.userAgent],
  ];
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(rows.map(([k, v]) => `${k}: ${v}`).join('\n'));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <EntryPage pageTitle={t('appPages.devtools.title')} size="md">
      <EntryCard
        title={t('appPages.devtools.title')}
        subtitle={t('appPages.devtools.intro')}
        testId="devtools"
        maw={640}
      >
        <Table withRowBorders={false} verticalSpacing={4} data-testid="devtools-table">
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w="40%" fw={500} style={{ verticalAlign: 'top' }}>
                  {label}
                </Table.Th>
                <Table.Td>
                  <Code style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>{value}</Code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group>
          <Button variant="default" onClick={() => void copy()} data-testid="devtools-copy">
            {copied ? t('appPages.devtools.copied') : t('appPages.devtools.copy')}
          </Button>
          {kiosk && (
            <Button
              color="red"
              variant="light"
              onClick={() => {
                store.clear();
                setKiosk(null);
              }}
              data-testid="devtools-forget-kiosk"
            >
              {t('appPages.devtools.forgetKiosk')}
            </Button>
          )}
        </Group>
      </EntryCard>
    </EntryPage>
  );
}
