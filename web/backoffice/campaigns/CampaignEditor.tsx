import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import {
  CampaignStatus,
  CampaignType,
  STARTER_TEMPLATES,
  type CampaignFilter,
  type CampaignView,
  type TemplatePreview,
} from '../../../shared/contracts/api/communication';
import { instantOfLocalTime } from '../../../shared/domain/schedule/occurrences';
import type { Locale } from '../../../shared/i18n/locales';
import { useBackoffice } from '../backoffice.api';
import { ApiError } from '../../lib/api-client';
import { money } from '../invoices/invoices.api';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useCampaign, useCampaignCalls, useCampaignCost, useRecipients } from './campaigns.api';
import { formatDateTime } from '../../../shared/i18n/dates';

const LANGS: Locale[] = ['pl', 'en'];

/** Compose, preview, test-send and send one campaign; its numbers once it went out (issue 23). */
export function CampaignEditor() {
  const { campaign: id = '' } = useParams();
  const { t } = useTranslation('communication');
  const campaign = useCampaign(id);
  if (campaign.isPending) return <Loader />;
  if (!campaign.data)
    return (
      <Alert color="red">
        {t('loadFailed')} <Link to="/campaigns">{t('back')}</Link>
      </Alert>
    );
  return <Editor campaign={campaign.data} />;
}

function useErrorText() {
  const { t } = useTranslation('communication');
  return (error: unknown) =>
    error instanceof ApiError && error.key && t(`errors.${error.key}`, { defaultValue: '' })
      ? t(`errors.${error.key}`)
      : t('common:errors.generalWithCode', {
          code: error instanceof ApiError ? `${error.status}-${error.code ?? 100}` : '100-100',
        });
}

function Editor({ campaign }: { campaign: CampaignView }) {
  const { t } = useTranslation('communication');
  const editable = campaign.status === CampaignStatus.draft || campaign.status === CampaignStatus.scheduled;
  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} to="/campaigns" size="sm">
        ← {t('back')}
      </Anchor>
      <Group justify="space-between" wrap="wrap">
        <Title order={1} size="h2" data-testid="campaign-title">
          {campaign.name}
        </Title>
        <Group gap="xs">
          <Badge variant="outline">{t(`channel.${campaign.type}`)}</Badge>
          <Badge data-testid="campaign-status">{t(`status.${campaign.status}`)}</Badge>
        </Group>
      </Group>
      {campaign.startedAt && <Stats campaign={campaign} />}
      <Audience campaign={campaign} editable={editable} />
      <Content campaign={campaign} editable={editable} />
      <Attachment campaign={campaign} editable={editable} />
      <Actions campaign={campaign} />
    </Stack>
  );
}

function Stats({ campaign }: { campaign: CampaignView }) {
  const { t } = useTranslation('communication');
  const s = campaign.stats;
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="campaign-stats">
      {(['recipients', 'sent', 'failed', 'pending', 'unsubscribed'] as const).map((k) => (
        <Card withBorder key={k} padding="sm">
          <Text size="xs" c="dimmed">
            {t(`stats.${k}`)}
          </Text>
          <Text fw={700} size="xl">
            {s[k]}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function Audience({ campaign, editable }: { campaign: CampaignView; editable: boolean }) {
  const { t } = useTranslation('communication');
  const calls = useCampaignCalls();
  const recipients = useRecipients(campaign.type, campaign.filter);
  const setFilter = (filter: CampaignFilter) => void calls.patch(campaign.id, { filter });
  const pass =
    campaign.filter.hasValidPass === undefined ? 'any' : campaign.filter.hasValidPass ? 'yes' : 'no';
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('audience.title')}
        </Title>
        <Group align="end" wrap="wrap">
          <Select
            label={t('audience.pass')}
            data={['any', 'yes', 'no'].map((v) => ({ value: v, label: t(`audience.passOption.${v}`) }))}
            value={pass}
            disabled={!editable}
            allowDeselect={false}
            onChange={(v) => {
              const { hasValidPass: _drop, ...rest } = campaign.filter;
              setFilter(v === 'any' ? rest : { ...rest, hasValidPass: v === 'yes' });
            }}
          />
          <Checkbox
            label={t('audience.birthday')}
            checked={campaign.filter.birthday === 'thisMonth'}
            disabled={!editable}
            onChange={(e) => {
              const { birthday: _drop, ...rest } = campaign.filter;
              setFilter(e.currentTarget.checked ? { ...rest, birthday: 'thisMonth' } : rest);
            }}
          />
        </Group>
        {recipients.data && (
          <Stack gap={4} data-testid="campaign-recipients">
            <Text fw={600}>{t('audience.reachable', { count: recipients.data.reachable })}</Text>
            <Text size="sm" c="dimmed">
              {t('audience.leftOut', {
                consent: recipients.data.withoutConsent,
                address: recipients.data.withoutAddress,
                optedOut: recipients.data.optedOut,
              })}
            </Text>
            {recipients.data.sample.length > 0 && (
              <Text size="sm">
                {t('audience.sample')}: {recipients.data.sample.map((r) => r.name).join(', ')}
              </Text>
            )}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

function Content({ campaign, editable }: { campaign: CampaignView; editable: boolean }) {
  const { t } = useTranslation('communication');
  const calls = useCampaignCalls();
  const [lang, setLang] = useState<Locale>('pl');
  const [preview, setPreview] = useState<TemplatePreview | null>(null);
  const sms = campaign.type === CampaignType.sms;
  const c = campaign.content;
  const form = useServerForm({
    initialValues: {
      plSubject: c.pl?.subject ?? '',
      plBody: c.pl?.body ?? '',
      enSubject: c.en?.subject ?? '',
      enBody: c.en?.body ?? '',
    },
    submit: (v) =>
      calls.content(campaign.id, {
        ...(v.plSubject || v.plBody ? { pl: { subject: v.plSubject, body: v.plBody } } : {}),
        ...(v.enSubject || v.enBody ? { en: { subject: v.enSubject, body: v.enBody } } : {}),
      }),
  });
  const subjectKey = `${lang}Subject` as const;
  const bodyKey = `${lang}Body` as const;
  return (
    <Card withBorder>
      <form {...form.formProps} data-testid="campaign-content">
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('content.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('content.hint')}
          </Text>
          <FormErrorList errors={form.formErrors} />
          <Tabs value={lang} onChange={(v) => setLang((v as Locale) ?? 'pl')}>
            <Tabs.List>
              {LANGS.map((l) => (
                <Tabs.Tab key={l} value={l} data-testid={`content-lang-${l}`}>
                  {t(`lang.${l}`)}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
          {editable && (
            <Select
              w={260}
              label={t('content.template')}
              placeholder={t('content.templatePlaceholder')}
              data={STARTER_TEMPLATES.map((v) => ({ value: v, label: t(`starter.${v}`) }))}
              value={null}
              onChange={(v) =>
                v &&
                void calls.load(v as (typeof STARTER_TEMPLATES)[number], lang).then((r) => {
                  form.setValue(subjectKey, r.content.subject);
                  form.setValue(bodyKey, r.content.body);
                })
              }
              data-testid="content-template"
            />
          )}
          {!sms && (
            <TextInput
              {...form.getInputProps(subjectKey)}
              label={t('content.subject')}
              maxLength={200}
              readOnly={!editable}
              data-testid="content-subject"
            />
          )}
          <Textarea
            name={bodyKey}
            value={form.values[bodyKey]}
            onChange={(e) => form.setValue(bodyKey, e.currentTarget.value)}
            label={t('content.body')}
            autosize
            minRows={6}
            maxRows={16}
            readOnly={!editable}
            data-testid="content-body"
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              data-testid="content-preview"
              onClick={() =>
                void calls
                  .preview(campaign.type as 0, lang, form.values[subjectKey], form.values[bodyKey])
                  .then(setPreview)
              }
            >
              {t('content.preview')}
            </Button>
            {editable && (
              <SubmitButton state={form.buttonState} data-testid="content-save">
                {t('content.save')}
              </SubmitButton>
            )}
          </Group>
        </Stack>
      </form>
      <Modal
        opened={preview !== null}
        onClose={() => setPreview(null)}
        title={t('content.preview')}
        size="xl"
      >
        {preview?.html ? (
          <Stack gap="xs">
            <Text fw={600} data-testid="preview-subject">
              {preview.subject}
            </Text>
            <iframe
              title={t('content.preview')}
              srcDoc={preview.html}
              sandbox=""
              style={{ width: '100%', height: 480, border: '1px solid #dee2e6' }}
              data-testid="preview-frame"
            />
          </Stack>
        ) : (
          <Stack gap="xs">
            <Text style={{ whiteSpace: 'pre-wrap' }}>{preview?.text}</Text>
            {preview?.sms && (
              <Text size="sm" c="dimmed" data-testid="preview-sms">
                {t('content.smsLength', preview.sms)}
              </Text>
            )}
          </Stack>
        )}
      </Modal>
    </Card>
  );
}

/** The image shown above the text or the PDF linked under it (one per campaign). */
function Attachment({ campaign, editable }: { campaign: CampaignView; editable: boolean }) {
  const { t } = useTranslation('communication');
  const calls = useCampaignCalls();
  const errorText = useErrorText();
  const [error, setError] = useState<string | null>(null);
  const pick = (file: File | undefined) => {
    if (!file) return;
    setError(null);
    const reader = new FileReader();
    reader.onload = () =>
      void calls
        .upload(campaign.id, file.name, String(reader.result))
        .catch((e: unknown) => setError(errorText(e)));
    reader.readAsDataURL(file);
  };
  if (!editable && !campaign.attachment) return null;
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('attachment.title')}
        </Title>
        {campaign.attachment ? (
          <Anchor href={campaign.attachment.url} target="_blank" data-testid="campaign-attachment">
            {campaign.attachment.name}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {t('attachment.none')}
          </Text>
        )}
        {editable && (
          <TextInput
            type="file"
            label={t('attachment.choose')}
            description={t('attachment.hint')}
            accept="image/png,image/jpeg,image/gif,image/webp,application/pdf"
            data-testid="campaign-file"
            onChange={(e) => pick(e.currentTarget.files?.[0])}
          />
        )}
        {error && <Alert color="red">{error}</Alert>}
      </Stack>
    </Card>
  );
}

/** "YYYY-MM-DDTHH:MM" typed in the studio's zone → the instant (ISO). */
function instantOfInput(value: string, timeZone: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  return instantOfLocalTime(m[1]!, Number(m[2]) * 60 + Number(m[3]), timeZone).toISOString();
}

/** Send later: a date and time in the studio's zone; once scheduled, when (and undo). */
function Schedule({
  campaign,
  run,
}: {
  campaign: CampaignView;
  run: (work: () => Promise<unknown>) => Promise<unknown>;
}) {
  const { t, i18n } = useTranslation('communication');
  const calls = useCampaignCalls();
  const { timeZone } = useBackoffice().studio;
  const [at, setAt] = useState('');
  if (campaign.status === CampaignStatus.scheduled && campaign.scheduledAt)
    return (
      <Group gap="xs">
        <Text size="sm" data-testid="campaign-scheduled-at">
          {t('schedule.at', {
            when: formatDateTime(campaign.scheduledAt, i18n.language, timeZone),
            zone: timeZone,
          })}
        </Text>
        <Button
          variant="default"
          data-testid="campaign-unschedule"
          onClick={() => void run(() => calls.patch(campaign.id, { action: 'unschedule' }))}
        >
          {t('schedule.unschedule')}
        </Button>
      </Group>
    );
  const instant = instantOfInput(at, timeZone);
  return (
    <Group gap="xs" align="end">
      <TextInput
        type="datetime-local"
        label={t('schedule.label', { zone: timeZone })}
        value={at}
        data-testid="campaign-schedule-at"
        onChange={(e) => setAt(e.currentTarget.value)}
      />
      <Button
        variant="default"
        disabled={!instant}
        data-testid="campaign-schedule"
        onClick={() =>
          instant && void run(() => calls.patch(campaign.id, { action: 'schedule', scheduledAt: instant }))
        }
      >
        {t('schedule.button')}
      </Button>
    </Group>
  );
}

function Actions({ campaign }: { campaign: CampaignView }) {
  const { t, i18n } = useTranslation('communication');
  const { timeZone } = useBackoffice().studio;
  const calls = useCampaignCalls();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const cost = useCampaignCost(campaign.id, campaign.updatedAt);
  const [testLang, setTestLang] = useState<Locale>('pl');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirm, setConfirm] = useState(false);
  const run = (work: () => Promise<unknown>, ok?: (r: unknown) => string) =>
    work().then(
      (r) => setMessage(ok ? { ok: true, text: ok(r) } : null),
      (e: unknown) => setMessage({ ok: false, text: errorText(e) }),
    );
  const draft = campaign.status === CampaignStatus.draft || campaign.status === CampaignStatus.scheduled;
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('actions.title')}
        </Title>
        {cost.data && (
          <Text data-testid="campaign-cost">
            {t('actions.cost', {
              count: cost.data.recipients,
              total: money(cost.data.total, cost.data.currency, i18n.language),
            })}
            {cost.data.sms ? ` · ${t('content.smsLength', cost.data.sms)}` : ''}
          </Text>
        )}
        {campaign.stopReason && campaign.status === CampaignStatus.draft && (
          <Alert color="orange" title={t('stopReason.title')} data-testid="campaign-stop-reason">
            {t(`stopReason.${campaign.stopReason.key}`, {
              needed: campaign.stopReason.needed,
              available: campaign.stopReason.available,
              at: formatDateTime(campaign.stopReason.at, i18n.language, timeZone),
            })}
          </Alert>
        )}
        {message && (
          <Alert color={message.ok ? 'green' : 'red'} data-testid="campaign-message">
            {message.text}
          </Alert>
        )}
        <Group wrap="wrap">
          {campaign.type === CampaignType.email && (
            <Group gap="xs" align="end">
              <Select
                w={120}
                aria-label={t('actions.testLanguage')}
                data={LANGS.map((l) => ({ value: l, label: t(`lang.${l}`) }))}
                value={testLang}
                allowDeselect={false}
                onChange={(v) => setTestLang((v as Locale) ?? 'pl')}
              />
              <Button
                variant="default"
                data-testid="campaign-test"
                onClick={() =>
                  void run(
                    () => calls.test(campaign.id, testLang),
                    (r) => t('actions.testSent', { to: (r as { sentTo: string }).sentTo }),
                  )
                }
              >
                {t('actions.test')}
              </Button>
            </Group>
          )}
          {draft && !confirm && (
            <Button data-testid="campaign-send" onClick={() => setConfirm(true)}>
              {t('actions.send')}
            </Button>
          )}
          {draft && confirm && (
            <Group gap="xs">
              <Text size="sm">{t('actions.confirm', { count: cost.data?.recipients ?? 0 })}</Text>
              <Button
                color="green"
                data-testid="campaign-send-confirm"
                onClick={() => {
                  setConfirm(false);
                  void run(() => calls.patch(campaign.id, { action: 'send' }));
                }}
              >
                {t('actions.sendNow')}
              </Button>
              <Button variant="default" onClick={() => setConfirm(false)}>
                {t('actions.cancel')}
              </Button>
            </Group>
          )}
          {draft && !confirm && <Schedule campaign={campaign} run={run} />}
          {campaign.status === CampaignStatus.inProgress && (
            <Button
              color="orange"
              onClick={() => void run(() => calls.patch(campaign.id, { action: 'pause' }))}
            >
              {t('actions.pause')}
            </Button>
          )}
          {campaign.status === CampaignStatus.paused && (
            <Button onClick={() => void run(() => calls.patch(campaign.id, { action: 'resume' }))}>
              {t('actions.resume')}
            </Button>
          )}
          <Button
            variant="default"
            data-testid="campaign-replicate"
            onClick={() =>
              void calls.replicate(campaign.id).then((copy) => navigate(`/campaigns/${copy.id}`))
            }
          >
            {t('actions.replicate')}
          </Button>
          {campaign.status !== CampaignStatus.inProgress && (
            <Button
              variant="subtle"
              color="red"
              onClick={() => void run(() => calls.remove(campaign.id).then(() => navigate('/campaigns')))}
            >
              {t('actions.delete')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
