import { Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * An honest empty state for parts of the product that are not built yet: says what the place is
 * and that its module is coming, instead of fake content.
 */
export function ModuleInProgress({
  title,
  description,
  testId,
}: {
  title: ReactNode;
  description: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder p="xl" radius="md" data-testid={testId ?? 'module-in-progress'}>
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          <svg
            width="26"
            height="26"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M12 6v6l4 2" />
            <circle cx="12" cy="12" r="9" />
          </svg>
        </ThemeIcon>
        <Title order={2} size="h3">
          {title}
        </Title>
        <Text c="dimmed" maw={440}>
          {description}
        </Text>
      </Stack>
    </Paper>
  );
}
