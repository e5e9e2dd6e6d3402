import { Button, Group, ScrollArea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router-dom';
import { useSession } from '../lib/app-context';
import { FRONTOFFICE_NAV, isActiveNav, visibleNav } from './nav';

/**
 * The client zone's menu: a row of pill buttons above every screen, scrolling sideways on phones so
 * that no entry is squeezed. The current screen's entry is filled.
 */
export function FrontofficeMenu() {
  const { t } = useTranslation('frontoffice');
  const session = useSession();
  const location = useLocation();
  const signedIn = Boolean(session.userId && session.sessionId);
  const items = visibleNav(FRONTOFFICE_NAV, signedIn);
  return (
    <ScrollArea
      type="never"
      mb="lg"
      component="nav"
      aria-label={t('nav.menu')}
      data-testid="frontoffice-menu"
    >
      <Group gap="xs" wrap="nowrap" w="max-content" pb={4}>
        {items.map((item) => {
          const active = isActiveNav(location.pathname, item.path);
          return (
            <Button
              key={item.path}
              component={NavLink}
              to={`/${item.path}`}
              size="xs"
              radius="xl"
              variant={active ? 'filled' : 'default'}
              style={{ flexShrink: 0 }}
              data-testid={`frontoffice-menu-${item.path.replace(/\//g, '-')}`}
            >
              {t(item.labelKey)}
            </Button>
          );
        })}
      </Group>
    </ScrollArea>
  );
}
