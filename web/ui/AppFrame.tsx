import { Box, Container, Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { CopyrightFooter } from './CopyrightFooter';
import { LanguageSwitch } from './LanguageSwitch';

export interface AppFrameProps {
  /** Shown top left (already translated). */
  title?: ReactNode;
  /** Shown left of the title (the studio's logo). */
  logo?: ReactNode;
  /** Extra header content left of the language switch (e.g. a sign-out button). */
  actions?: ReactNode;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  children: ReactNode;
}

/** Layout of the public pages: a slim header with the language switch, the content, the footer. */
export function AppFrame({ title, logo, actions, size = 'sm', children }: AppFrameProps) {
  return (
    <Box mih="100vh" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size={size} py="sm">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap" miw={0}>
              {logo}
              {/* Two lines before an ellipsis: a studio's name is not cut on a phone (issue 26). */}
              <Title order={1} size="h4" lineClamp={2} lh={1.2} style={{ overflowWrap: 'anywhere' }}>
                {title}
              </Title>
            </Group>
            <Group gap="sm" wrap="nowrap">
              {actions}
              <LanguageSwitch />
            </Group>
          </Group>
        </Container>
      </Box>
      <Container component="main" size={size} py="xl" w="100%" style={{ flex: 1 }}>
        {children}
      </Container>
      <CopyrightFooter />
    </Box>
  );
}
