import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBackoffice } from '../backoffice.api';
import { roleLabel } from '../role-label';

/** The only section with content for now: who is signed in where, and the studio's basics. */
export function Dashboard() {
  const { t } = useTranslation('backoffice');
  const { studio, member } = useBackoffice();
  const fullName = `${member.firstName} ${member.lastName}`.trim();
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('nav.dashboard')}
      </Title>
      <Card withBorder shadow="xs" radius="md" padding="lg" data-testid="welcome-card">
        <Stack gap="xs">
          <Text size="sm" c="dimmed" tt="uppercase" fw={600}>
            {t('dashboard.studio')}
          </Text>
          <Title order={2} size="h3" data-testid="dashboard-studio-name">
            {studio.name}
          </Title>
          <Text size="lg">{t('dashboard.welcome', { name: member.firstName || fullName })}</Text>
          <Group gap="xs">
            <Text c="dimmed" data-testid="dashboard-member-name">
              {t('dashboard.signedInAs', { name: fullName })}
            </Text>
            <Badge variant="light" data-testid="dashboard-member-role">
              {member.roleName ?? roleLabel(t, member.role)}
            </Badge>
          </Group>
        </Stack>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <Fact label={t('dashboard.timeZone')} value={studio.timeZone} />
        <Fact label={t('dashboard.currency')} value={studio.currency} />
        <Fact
          label={t('dashboard.frontOffice')}
          value={
            <Anchor href={studio.frontOfficeLink} target="_blank" rel="noopener" size="sm">
              {t('dashboard.openFrontOffice')}
            </Anchor>
          }
        />
      </SimpleGrid>
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={500} mt={4}>
        {value}
      </Text>
    </Card>
  );
}
