import { Badge, Button, Grid, Group, NavLink, Paper, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink as RouterNavLink, Outlet, useLocation } from 'react-router-dom';
import { FRONT_OFFICE_QUERY, backOfficePath } from '../../../shared/contracts/routes';
import { useMe } from '../../features/auth/auth.api';
import { useSession } from '../../lib/app-context';
import { StaffOnlyNotice } from '../staff/StaffDestinations';
import { useStudioUuid } from '../studio';
import { VerifyEmailNotice } from './EmailVerification';
import { ACCOUNT_SLUGS } from './slugs';

const ITEMS = [
  { slug: ACCOUNT_SLUGS.profile, key: 'nav.profile' },
  { slug: ACCOUNT_SLUGS.identity, key: 'nav.identity' },
  { slug: ACCOUNT_SLUGS.messages, key: 'nav.messages' },
  { slug: ACCOUNT_SLUGS.notifications, key: 'nav.notifications' },
  { slug: ACCOUNT_SLUGS.links, key: 'nav.links' },
  { slug: ACCOUNT_SLUGS.settings, key: 'nav.settings' },
  { slug: ACCOUNT_SLUGS.security, key: 'nav.security' },
  { slug: ACCOUNT_SLUGS.feedback, key: 'studio-admin:feedback.nav' },
] as const;

/**
 * The client's account pages: a side menu from the small breakpoint up, a horizontally scrolling
 * row of buttons on phones. Signed-out visitors are offered the sign-in, which brings them back.
 */
export function AccountLayout() {
  const { t } = useTranslation('account');
  const session = useSession();
  const location = useLocation();
  const studioUuid = useStudioUuid();
  const me = useMe();
  const here = me.data?.memberships.find((m) => m.studioUuid === studioUuid);
  if (here && !here.isClient) {
    // Staff signed in to the client zone: there is no client account to show (the calls would 403).
    return (
      <StaffOnlyNotice
        studioName={here.studioName}
        backofficeHref={here.isMember ? backOfficePath(studioUuid) : null}
      />
    );
  }
  if (!session.userId || !session.sessionId) {
    const back = location.pathname.split('/frontoffice/')[1] ?? ACCOUNT_SLUGS.profile;
    const login = `/login?${new URLSearchParams({ [FRONT_OFFICE_QUERY.redirectAfterLogin]: back })}`;
    return (
      <Paper withBorder p="xl" radius="md" maw={480} mx="auto" data-testid="account-signed-out">
        <Stack gap="md">
          <Text>{t('signedOut')}</Text>
          <Group>
            <Button component={Link} to={login}>
              {t('signup.signIn')}
            </Button>
            <Button component={Link} to={`/${ACCOUNT_SLUGS.signup}`} variant="default">
              {t('home.signUp')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    );
  }
  return (
    <Grid gutter="lg" data-testid="account-layout">
      <Grid.Col span={{ base: 12, sm: 3 }}>
        <ScrollArea hiddenFrom="sm" type="never" data-testid="account-nav-phone">
          <Group gap="xs" wrap="nowrap" pb={4} w="max-content">
            {ITEMS.map((item) => (
              <Button
                key={item.slug}
                component={RouterNavLink}
                to={`/${item.slug}`}
                size="xs"
                radius="xl"
                style={{ flexShrink: 0 }}
                variant={location.pathname.endsWith(`/${item.slug}`) ? 'filled' : 'default'}
              >
                {t(item.key)}
              </Button>
            ))}
          </Group>
        </ScrollArea>
        <Stack gap={2} visibleFrom="sm" data-testid="account-nav">
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" mb={4}>
            {t('nav.title')}
          </Text>
          {ITEMS.map((item) => (
            <NavLink
              key={item.slug}
              component={RouterNavLink}
              to={`/${item.slug}`}
              label={t(item.key)}
              active={location.pathname.endsWith(`/${item.slug}`)}
              style={{ borderRadius: 'var(--mantine-radius-sm)' }}
            />
          ))}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 9 }}>
        <VerifyEmailNotice />
        <Outlet />
      </Grid.Col>
    </Grid>
  );
}

export function UnreadBadge({ count, label }: { count: number; label: string }) {
  if (count <= 0) return null;
  return (
    <Badge color="red" variant="light" data-testid="unread-count">
      {label}
    </Badge>
  );
}
