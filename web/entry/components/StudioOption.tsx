import { Button, Flex, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import { ChevronRightIcon } from './icons';
import { StudioLogo } from './StudioLogo';

/**
 * A studio in a list, as one link to where picking it leads (login or sign-up in the studio's
 * front office): logo or placeholder, name, address. A plain link, so the server serves the target.
 */
export function StudioOption({
  name,
  logoUrl,
  address,
  href,
  testId = 'studio-option',
}: {
  name: string;
  logoUrl: string | null;
  address: string;
  href: string;
  testId?: string;
}) {
  return (
    <li>
      <UnstyledButton component="a" href={href} className="entry-studio-option" data-testid={testId}>
        <Group wrap="nowrap" gap="md">
          <StudioLogo name={name} logoUrl={logoUrl} />
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Text fw={600} lineClamp={2} data-testid="studio-name">
              {name}
            </Text>
            {address ? (
              <Text size="sm" c="dimmed" lineClamp={2} data-testid="studio-address">
                {address}
              </Text>
            ) : null}
          </Stack>
          <Text c="dimmed" component="span" style={{ display: 'flex' }}>
            <ChevronRightIcon />
          </Text>
        </Group>
      </UnstyledButton>
    </li>
  );
}

/** The list around StudioOption rows (or rows with their own button). */
export function StudioList({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <Stack gap="xs" component="ul" className="entry-studio-list" data-testid={testId}>
      {children}
    </Stack>
  );
}

/**
 * A studio with its own Log in button (delete picker, studioAlreadyExists): on phones the button
 * goes under the name at full width, so a long studio name keeps its room.
 */
export function StudioRow({
  name,
  logo,
  address,
  actionLabel,
  href,
}: {
  name: string;
  logo: ReactNode;
  address?: string;
  actionLabel: string;
  href: string;
}) {
  return (
    <li className="entry-studio-row" data-testid="studio-option">
      <Flex
        direction={{ base: 'column', sm: 'row' }}
        align={{ base: 'stretch', sm: 'center' }}
        gap={{ base: 'sm', sm: 'md' }}
      >
        <Group wrap="nowrap" gap="md" style={{ flex: 1, minWidth: 0 }}>
          {logo}
          <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
            <Text fw={600} lineClamp={2} data-testid="studio-name">
              {name}
            </Text>
            {address ? (
              <Text size="sm" c="dimmed" lineClamp={2} data-testid="studio-address">
                {address}
              </Text>
            ) : null}
          </Stack>
        </Group>
        <Button component="a" href={href} variant="light" size="sm" data-testid="studio-log-in">
          {actionLabel}
        </Button>
      </Flex>
    </li>
  );
}
