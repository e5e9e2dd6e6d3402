import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card for whole-screen states (no permission, not found, load failure). */
export function CenteredMessage({
  title,
  children,
  actions,
  testId,
}: {
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder shadow="xs" p="xl" radius="md" maw={480} mx="auto" data-testid={testId}>
      <Stack gap="sm">
        <Title order={2} size="h3">
          {title}
        </Title>
        {children ? <Text c="dimmed">{children}</Text> : null}
        {actions}
      </Stack>
    </Paper>
  );
}
