import {
  Alert,
  Badge,
  Card,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import {
  CampaignStatus,
  type AutomationScenario,
  type AutomationSettings,
} from '../../../shared/contracts/api/communication';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useAutomations, useCampaignCalls, useCampaigns, useSaveAutomation } from './campaigns.api';
import { useStudioDates } from '../use-studio-date-time';

const STATUS_COLORS = ['gray', 'green', 'blue', 'yellow', 'orange'] as const;

/** Campaigns (list, a new one) and the studio's automations with their reminder log (issue 23). */
export function CampaignsScreen() {
  const { t } = useTranslation('communication');
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      <Tabs defaultValue="campaigns" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="campaigns" data-testid="tab-campaigns">
            {t('tabs.campaigns')}
          </Tabs.Tab>
          <Tabs.Tab value="automations" data-testid="tab-automations">
            {t('tabs.automations')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="campaigns" pt="md">
          <CampaignList />
        </Tabs.Panel>
        <Tabs.Panel value="automations" pt="md">
          <Automations />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function NewCampaign() {
  const { t } = useTranslation('communication');
  const calls = useCampaignCalls();
  const navigate = useNavigate();
  const form = useServerForm({
    initialValues: { name: '', type: '0' },
    submit: (v) => calls.create(v.name, Number(v.type) as 0 | 1 | 2 | 3),
    onSuccess: (view) => navigate(`/campaigns/${view.id}`),
  });
  return (
    <Card withBorder>
      <form {...form.formProps} data-testid="campaign-new">
        <FormErrorList errors={form.formErrors} />
        <Group align="end" wrap="wrap">
          <TextInput {...form.getInputProps('name')} label={t('new.name')} required maxLength={120} />
          <Select
            label={t('new.channel')}
            data={[0, 1, 3, 2].map((v) => ({ value: String(v), label: t(`channel.${v}`) }))}
            value={form.values.type}
            onChange={(v) => form.setValue('type', v ?? '0')}
            allowDeselect={false}
            data-testid="campaign-new-channel"
          />
          <SubmitButton state={form.buttonState} data-testid="campaign-new-submit">
            {t('new.submit')}
          </SubmitButton>
        </Group>
      </form>
    </Card>
  );
}

function CampaignList() {
  const { t } = useTranslation('communication');
  const dates = useStudioDates();
  const list = useCampaigns();
  const when = (iso: string | null) => (iso ? dates.dateTime(iso) : '—');
  return (
    <Stack gap="md">
      <NewCampaign />
      {list.isPending ? (
        <Loader />
      ) : !list.data?.items.length ? (
        <Text c="dimmed">{t('list.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped data-testid="campaign-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('list.name')}</Table.Th>
                <Table.Th>{t('list.channel')}</Table.Th>
                <Table.Th>{t('list.status')}</Table.Th>
                <Table.Th>{t('list.sent')}</Table.Th>
                <Table.Th>{t('list.updated')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
                  </Table.Td>
                  <Table.Td>{t(`channel.${c.type}`)}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLORS[c.status] ?? 'gray'} variant="light">
                      {t(`status.${c.status}`)}
                    </Badge>
                    {c.stopReason && c.status === CampaignStatus.draft ? (
                      <Badge color="orange" variant="outline" ml={4} data-testid="campaign-stopped">
                        {t('stopReason.badge')}
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {c.stats.sent} / {c.stats.recipients}
                  </Table.Td>
                  <Table.Td>{when(c.finishedAt ?? c.updatedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

const SETTING_OF: Partial<Record<string, keyof AutomationSettings>> = {
  classReminder: 'hoursBefore',
  appointmentReminder: 'hoursBefore',
  passExpiring: 'daysBefore',
  passRunningOut: 'entriesLeft',
  winBack: 'daysWithoutVisit',
  firstVisitFollowUp: 'hoursAfter',
  reviewRequest: 'hoursAfter',
};

function ScenarioRow({ scenario }: { scenario: AutomationScenario }) {
  const { t } = useTranslation('communication');
  const save = useSaveAutomation();
  const [error, setError] = useState(false);
  const setting = SETTING_OF[scenario.kind];
  const put = (enabled: boolean, settings: AutomationSettings) =>
    save(scenario.kind, enabled, settings).then(
      () => setError(false),
      () => setError(true),
    );
  return (
    <Card withBorder padding="sm" data-testid={`automation-${scenario.kind}`}>
      <Group justify="space-between" wrap="wrap">
        <Stack gap={2} style={{ flex: 1, minWidth: 200 }}>
          <Text fw={600}>{t(`automations.${scenario.kind}.name`)}</Text>
          <Text size="sm" c="dimmed">
            {scenario.available
              ? t(`automations.${scenario.kind}.hint`)
              : t('automations.comingWithAppointments')}
          </Text>
          {error && (
            <Text size="sm" c="red">
              {t('automations.saveFailed')}
            </Text>
          )}
        </Stack>
        {setting && (
          <NumberInput
            w={150}
            label={t(`automations.setting.${setting}`)}
            value={scenario.settings[setting] ?? ''}
            disabled={!scenario.available}
            min={1}
            onBlur={(e) => {
              const n = Number(e.currentTarget.value);
              if (Number.isInteger(n) && n > 0 && n !== scenario.settings[setting])
                void put(scenario.enabled, { ...scenario.settings, [setting]: n });
            }}
          />
        )}
        <Switch
          checked={scenario.enabled}
          disabled={!scenario.available}
          label={t('automations.on')}
          onChange={(e) => void put(e.currentTarget.checked, scenario.settings)}
        />
      </Group>
    </Card>
  );
}

function Automations() {
  const { t } = useTranslation('communication');
  const dates = useStudioDates();
  const data = useAutomations();
  if (data.isPending) return <Loader />;
  if (!data.data) return <Alert color="red">{t('loadFailed')}</Alert>;
  return (
    <Stack gap="sm">
      <Text c="dimmed">{t('automations.intro')}</Text>
      {data.data.scenarios.map((s) => (
        <ScenarioRow key={s.kind} scenario={s} />
      ))}
      <Title order={2} size="h4" mt="md">
        {t('log.title')}
      </Title>
      {data.data.log.length === 0 ? (
        <Text c="dimmed">{t('log.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table data-testid="reminder-log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('log.when')}</Table.Th>
                <Table.Th>{t('log.client')}</Table.Th>
                <Table.Th>{t('log.scenario')}</Table.Th>
                <Table.Th>{t('log.subject')}</Table.Th>
                <Table.Th>{t('log.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.log.map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>{dates.dateTime(l.sentAt ?? l.createdAt)}</Table.Td>
                  <Table.Td>{l.clientName || l.address}</Table.Td>
                  <Table.Td>{t(`automations.${l.kind}.name`)}</Table.Td>
                  <Table.Td>{l.subject}</Table.Td>
                  <Table.Td>
                    <Badge color={l.status === 1 ? 'green' : l.status === 0 ? 'red' : 'gray'} variant="light">
                      {t(`log.state.${l.status ?? 'queued'}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
