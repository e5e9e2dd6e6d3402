import { Anchor, Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useBackoffice } from '../backoffice.api';
import { clientListPath } from './client-filters';
import { useClientProfile } from './clients.api';
import { useOffline } from '../../lib/connectivity';
import { CenteredMessage } from '../../ui/CenteredMessage';
import { ProvisionalBadge } from '../sync/ProvisionalBadge';
import { ClientsLoadError, ClientsLoading } from './ClientStates';
import { CLIENT_PROFILE_TABS } from './profile-tabs';

/** `#/clients/:clientId/:tab?`: the client's profile, its tabs from the registry in profile-tabs.tsx. */
export function ClientProfileScreen() {
  const { t } = useTranslation('clients');
  const { clientId = '', tab } = useParams();
  const navigate = useNavigate();
  const { member } = useBackoffice();
  const profile = useClientProfile(clientId);
  const offline = useOffline();
  const tabs = CLIENT_PROFILE_TABS.filter(
    (entry) => !entry.ability || member.abilities.includes(entry.ability),
  );
  const first = tabs[0];
  const current = tabs.find((entry) => entry.id === tab) ?? (tab === undefined ? first : undefined);

  if (tab !== undefined && !current) return <Navigate to={`/clients/${clientId}`} replace />;
  const back = (
    <Anchor component={Link} to={clientListPath()} size="sm" data-testid="client-back">
      ← {t('profile.back')}
    </Anchor>
  );
  if (profile.error)
    return (
      <Stack gap="md" maw={1100}>
        {back}
        <ClientsLoadError error={profile.error} onRetry={() => void profile.refetch()} />
      </Stack>
    );
  if (!profile.data || !current) return <ClientsLoading />;
  const { client } = profile.data;
  const Component = current.Component;

  return (
    <Stack gap="md" maw={1100}>
      {back}
      <Group gap="sm" align="center">
        <Title order={1} size="h2" data-testid="client-name">
          {client.firstName} {client.lastName}
        </Title>
        {client.status === 'archived' ? (
          <Badge color="gray" variant="outline" data-testid="client-archived-badge">
            {t('status.archived')}
          </Badge>
        ) : null}
        {client.hasValidPass ? (
          <Badge color="teal" variant="light">
            {t('list.validPass')}
          </Badge>
        ) : null}
        <ProvisionalBadge provisional={client.provisional} />
      </Group>
      {client.emailAddress || client.phone ? (
        <Text c="dimmed" size="sm" mt={-8}>
          {[client.emailAddress, client.phone].filter(Boolean).join(' · ')}
        </Text>
      ) : null}
      <Tabs
        value={current.id}
        onChange={(value) =>
          navigate(value === first?.id ? `/clients/${clientId}` : `/clients/${clientId}/${value}`)
        }
      >
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
          {tabs.map((entry) => (
            <Tabs.Tab key={entry.id} value={entry.id} data-testid={`client-tab-${entry.id}`}>
              {t(entry.labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {offline && !current.offline ? (
        // The desk station without the cloud: this tab's data is not in its copy.
        <CenteredMessage title={t('sync:offlineTab.title')} testId="client-tab-offline">
          {t('sync:offlineTab.body')}
        </CenteredMessage>
      ) : (
        <Component key={clientId} clientId={clientId} client={client} profile={profile.data} />
      )}
    </Stack>
  );
}
