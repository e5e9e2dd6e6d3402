import {
  AppShell,
  Avatar,
  Burger,
  Group,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { useSignOut } from '../features/auth/auth.api';
import { preloadLinksProps } from '../lib/lazy-screen';
import { CopyrightFooter } from '../ui/CopyrightFooter';
import { LanguageSwitch } from '../ui/LanguageSwitch';
import { RouteFallback } from '../ui/RouteFallback';
import { useDocumentTitle } from '../ui/use-document-title';
import { useBackoffice } from './backoffice.api';
import { SECTIONS } from './sections';
import { SectionIcon } from './SectionIcon';
import { BackofficeSearch } from './studio-admin/BackofficeSearch';

/**
 * Back-office layout: header (studio, language, user menu), sidebar (burger on phones), content.
 * Screens are lazy chunks: `preload` fetches the one behind a link the pointer or focus reaches.
 */
export function BackofficeShell({ preload }: { preload?: (path: string) => void } = {}) {
  const { t } = useTranslation('backoffice');
  const { studio, member } = useBackoffice();
  // Sections that need an ability are shown to roles holding it (the server refuses the rest anyway).
  const sections = SECTIONS.filter(
    (section) => !('ability' in section) || member.abilities.includes(section.ability),
  );
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  useDocumentTitle(`${studio.name} · ${t('title')}`);
  const preloadProps = useMemo(() => (preload ? preloadLinksProps(preload) : {}), [preload]);

  // On phones the sidebar covers the content: close it after choosing a section.
  useEffect(() => close(), [location.pathname, close]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
      {...preloadProps}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={t('nav.toggle')}
              data-testid="nav-burger"
            />
            {/* Wraps to a second, smaller line on phones rather than cutting the studio's name. */}
            <Text
              fw={700}
              fz={{ base: 'sm', sm: 'lg' }}
              lh={1.2}
              lineClamp={2}
              data-testid="header-studio-name"
            >
              {studio.name}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <LanguageSwitch />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label={t('nav.label')}>
        <AppShell.Section mb="sm">
          <BackofficeSearch />
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {sections.map((section) => (
              <NavLink
                key={section.id}
                component={Link}
                to={section.path}
                label={t('labelKey' in section ? section.labelKey : `nav.${section.id}`)}
                leftSection={<SectionIcon section={section.id} />}
                active={isActive(location.pathname, section.path)}
                data-testid={`nav-${section.id}`}
                style={{ borderRadius: 'var(--mantine-radius-md)' }}
              />
            ))}
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1 }}>
          <Suspense fallback={<RouteFallback />}>
            <Outlet />
          </Suspense>
        </div>
        <CopyrightFooter />
      </AppShell.Main>
    </AppShell>
  );
}

function isActive(pathname: string, path: string): boolean {
  return path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);
}

function UserMenu() {
  const { t } = useTranslation('backoffice');
  const { member } = useBackoffice();
  const signOut = useSignOut();
  const fullName = `${member.firstName} ${member.lastName}`.trim();
  const initials = `${member.firstName.charAt(0)}${member.lastName.charAt(0)}`.toUpperCase();
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={t('user.menu')} data-testid="user-menu">
          <Group gap="xs" wrap="nowrap">
            <Avatar color="studio" radius="xl" size={34}>
              {initials}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="md" lineClamp={1} maw={160}>
              {fullName}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {fullName}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={1}>
            {member.emailAddress}
          </Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item
          onClick={() => signOut.mutate()}
          disabled={signOut.isPending}
          data-testid="sign-out"
          color="red"
        >
          {t('common:auth.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
