import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { lazyScreen } from '../../lib/lazy-screen';
import { useBackoffice } from '../backoffice.api';
import { roleLabel } from '../role-label';
import { SetupCard } from '../studio-admin/SetupCard';

// The figures and their charts load in a chunk of their own (the charts library is not small).
const DashboardFigures = lazyScreen(() => import('../reports/DashboardFigures'), 'DashboardFigures');

/**
 * The back office's first screen: who is signed in where, then today at a glance for staff whose
 * role holds `reports.view` (issue 20, `web/backoffice/reports/DashboardFigures.tsx`).
 */
export function Dashboard() {
  const { t } = useTranslation('backoffice');
  const { t: tr } = useTranslation('reports');
  const { studio, member } = useBackoffice();
  const fullName = `${member.firstName} ${member.lastName}`.trim();
  const canSee = member.abilities.includes('reports.view');
  return (
    <Stack gap="md" maw={1200}>
      <Card withBorder radius="md" padding="md" data-testid="welcome-card">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {t('nav.dashboard')} · {t('dashboard.studio')}
            </Text>
            <Title order={1} size="h3" data-testid="dashboard-studio-name">
              {studio.name}
            </Title>
            <Text>{t('dashboard.welcome', { name: member.firstName || fullName })}</Text>
          </Stack>
          <Stack gap={4} align="flex-end">
            <Group gap="xs">
              <Text c="dimmed" size="sm" data-testid="dashboard-member-name">
                {t('dashboard.signedInAs', { name: fullName })}
              </Text>
              <Badge variant="light" data-testid="dashboard-member-role">
                {member.roleName ?? roleLabel(t, member.role)}
              </Badge>
            </Group>
            <Anchor href={studio.frontOfficeLink} target="_blank" rel="noopener" size="sm">
              {t('dashboard.openFrontOffice')}
            </Anchor>
          </Stack>
        </Group>
      </Card>
      <SetupCard />
      {canSee ? (
        <DashboardFigures />
      ) : (
        <Text c="dimmed" size="sm">
          {tr('dashboard.noAccess')}
        </Text>
      )}
    </Stack>
  );
}
