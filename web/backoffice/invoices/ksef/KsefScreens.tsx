import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  PasswordInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { InvoiceKsefView, KsefEnvironment, KsefState } from '../../../../shared/contracts/api/ksef';
import { ApiError } from '../../../lib/api-client';
import { SubmitButton } from '../../../ui/SubmitButton';
import { useSubmitButton } from '../../../ui/use-submit-button';
import { money, useCanInvoice } from '../invoices.api';
import { useInvoiceKsef, useKsefCalls, useKsefInvoices, useKsefSettings } from './ksef.api';
import { formatDate } from '../../../../shared/i18n/dates';

const STATE_COLOR: Record<KsefState, string> = {
  none: 'gray',
  waiting: 'yellow',
  sent: 'blue',
  accepted: 'green',
  refused: 'red',
};

/** Waiting / sent / accepted / refused (and "offline" when issued while KSeF was unreachable). */
export function KsefStateBadge({ view }: { view: Pick<InvoiceKsefView, 'state' | 'mode'> }) {
  const { t } = useTranslation('ksef');
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={STATE_COLOR[view.state]} variant="light" data-testid="ksef-state">
        {t(`state.${view.state}`)}
      </Badge>
      {view.mode === 'offline' ? (
        <Badge color="orange" variant="outline" title={t('offlineHint')}>
          {t('offline')}
        </Badge>
      ) : null}
    </Group>
  );
}

function errorText(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError && error.key?.startsWith('ksef.')) return t(`errors.${error.key.slice(5)}`);
  return error instanceof Error ? error.message : String(error);
}

function ResendButton({ invoiceId, onError }: { invoiceId: string; onError: (e: unknown) => void }) {
  const { t } = useTranslation('ksef');
  const calls = useKsefCalls();
  const button = useSubmitButton();
  return (
    <SubmitButton
      size="xs"
      variant="default"
      state={button.state}
      data-testid="ksef-resend"
      onClick={() =>
        void button
          .run(() => calls.resend(invoiceId))
          .then((r) => {
            if (r.accepted && !r.ok) onError(r.error);
          })
      }
    >
      {t('resend')}
    </SubmitButton>
  );
}

/** The invoice detail's KSeF card: state, number, KSeF's reason, the UPO, Resend. */
export function KsefStatePanel({ invoiceId }: { invoiceId: string }) {
  const { t } = useTranslation('ksef');
  const canInvoice = useCanInvoice();
  const calls = useKsefCalls();
  const ksef = useInvoiceKsef(invoiceId);
  const [error, setError] = useState<string | null>(null);
  const view = ksef.data;
  if (!view) return null;
  return (
    <Card withBorder padding="sm" data-testid="ksef-panel">
      <Group justify="space-between" align="start">
        <Stack gap={4}>
          <Group gap="xs">
            <Text fw={600}>KSeF</Text>
            <KsefStateBadge view={view} />
          </Group>
          {view.ksefNumber ? (
            <Text size="sm" data-testid="ksef-number">
              {t('number')}: <b>{view.ksefNumber}</b>
            </Text>
          ) : null}
          {view.state === 'refused' && view.reason ? (
            <Text size="sm" c="red" data-testid="ksef-reason">
              {t('reason')}: {view.reason}
            </Text>
          ) : null}
          {view.state === 'waiting' && view.lastError ? (
            <Text size="sm" c="dimmed">
              {t('unreachable')}
            </Text>
          ) : null}
          {view.state === 'none' ? (
            <Text size="sm" c="dimmed">
              {t('notSent')}
            </Text>
          ) : null}
          {view.verificationUrl ? (
            <Anchor size="sm" href={view.verificationUrl} target="_blank" rel="noreferrer">
              {t('verify')}
            </Anchor>
          ) : null}
        </Stack>
        <Group gap="xs">
          {view.upoAvailable ? (
            <Button component="a" size="xs" variant="default" href={calls.upoPath(invoiceId)} download>
              {t('upo')}
            </Button>
          ) : null}
          {canInvoice && view.resendable ? (
            <ResendButton invoiceId={invoiceId} onError={(e) => setError(errorText(e, t))} />
          ) : null}
        </Group>
      </Group>
      {error ? (
        <Alert color="red" mt="xs">
          {error}
        </Alert>
      ) : null}
    </Card>
  );
}

/** The Invoices → KSeF tab: the studio's KSeF settings and every invoice's state there. */
export function KsefPanel() {
  const { t, i18n } = useTranslation('ksef');
  const canInvoice = useCanInvoice();
  const [state, setState] = useState<KsefState | 'all'>('all');
  const list = useKsefInvoices(state);
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap="lg" data-testid="ksef-screen">
      <KsefSettingsCard editable={canInvoice} />
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('listTitle')}
        </Title>
        <SegmentedControl
          value={state}
          onChange={(v) => setState(v as KsefState | 'all')}
          data={(['all', 'waiting', 'sent', 'accepted', 'refused', 'none'] as const).map((s) => ({
            value: s,
            label: s === 'all' ? t('all') : t(`state.${s}`),
          }))}
          data-testid="ksef-filter"
        />
        {error ? <Alert color="red">{error}</Alert> : null}
        {!list.data ? (
          <Center p="lg">
            <Loader size="sm" />
          </Center>
        ) : list.data.items.length === 0 ? (
          <Text c="dimmed">{t('empty')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table striped data-testid="ksef-list">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('col.invoice')}</Table.Th>
                  <Table.Th>{t('col.buyer')}</Table.Th>
                  <Table.Th ta="right">{t('col.gross')}</Table.Th>
                  <Table.Th>{t('col.state')}</Table.Th>
                  <Table.Th>{t('col.ksef')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.items.map((item) => (
                  <Table.Tr key={item.invoiceId} data-testid="ksef-row">
                    <Table.Td>
                      <Anchor component={Link} to={`/invoices/${item.invoiceId}`}>
                        {item.number}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {formatDate(item.issueDate, i18n.language)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{item.buyerName}</Table.Td>
                    <Table.Td ta="right">{money(item.gross, item.currency, i18n.language)}</Table.Td>
                    <Table.Td>
                      <KsefStateBadge view={item} />
                    </Table.Td>
                    <Table.Td>
                      {item.ksefNumber ? (
                        <Text size="sm" ff="monospace">
                          {item.ksefNumber}
                        </Text>
                      ) : item.state === 'refused' ? (
                        <Text size="sm" c="red" lineClamp={3} data-testid="ksef-row-reason">
                          {item.reason}
                        </Text>
                      ) : item.state === 'waiting' && item.lastError ? (
                        <Text size="sm" c="dimmed">
                          {t('unreachable')}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      {canInvoice && item.resendable && item.state !== 'none' ? (
                        <ResendButton invoiceId={item.invoiceId} onError={(e) => setError(errorText(e, t))} />
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}

function KsefSettingsCard({ editable }: { editable: boolean }) {
  const { t } = useTranslation('ksef');
  const settings = useKsefSettings();
  const calls = useKsefCalls();
  const button = useSubmitButton();
  const [environment, setEnvironment] = useState<KsefEnvironment | null>(null);
  const [token, setToken] = useState('');
  const [certificatePem, setCertificatePem] = useState('');
  const [privateKeyPem, setPrivateKeyPem] = useState('');
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<string | null>(null);
  if (!settings.data) return null;
  const view = settings.data;
  const env = environment ?? view.environment;

  const save = () =>
    void button
      .run(() =>
        calls.saveSettings({
          environment: env,
          ...(token.trim() ? { token: token.trim() } : {}),
          ...(certificatePem.trim() || privateKeyPem.trim()
            ? { offlineCertificate: { certificatePem, privateKeyPem } }
            : {}),
        }),
      )
      .then((r) => {
        if (!r.accepted) return;
        if (r.ok) {
          setToken('');
          setCertificatePem('');
          setPrivateKeyPem('');
          setFields({});
          setError(null);
        } else {
          setFields(r.error instanceof ApiError ? r.error.fields : {});
          setError(errorText(r.error, t));
        }
      });

  return (
    <Card withBorder padding="md" data-testid="ksef-settings">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('settings.title')}
          </Title>
          <Badge color={view.tokenSaved ? 'green' : 'gray'} variant="light" data-testid="ksef-token-state">
            {view.tokenSaved ? t('settings.tokenSaved', { hint: view.tokenHint }) : t('settings.noToken')}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t('settings.intro')}
        </Text>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('settings.environment')}
          </Text>
          <SegmentedControl
            disabled={!editable}
            value={env}
            onChange={(v) => setEnvironment(v as KsefEnvironment)}
            data={[
              { value: 'test', label: t('settings.env.test') },
              { value: 'production', label: t('settings.env.production') },
            ]}
            data-testid="ksef-environment"
          />
        </div>
        {editable ? (
          <>
            <PasswordInput
              label={t('settings.token')}
              description={t('settings.tokenHelp')}
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              error={fields.token?.[0]}
              autoComplete="off"
              data-testid="ksef-token"
            />
            <Text size="sm" c="dimmed">
              {view.offlineCertificate
                ? t('settings.certificateSaved', { serial: view.offlineCertificate.serialNumber })
                : t('settings.noCertificate')}
            </Text>
            <Group grow align="start">
              <Textarea
                label={t('settings.certificate')}
                value={certificatePem}
                onChange={(e) => setCertificatePem(e.currentTarget.value)}
                autosize
                minRows={2}
                maxRows={6}
                error={fields.offlineCertificate?.[0] ?? fields['offlineCertificate.certificatePem']?.[0]}
              />
              <Textarea
                label={t('settings.privateKey')}
                value={privateKeyPem}
                onChange={(e) => setPrivateKeyPem(e.currentTarget.value)}
                autosize
                minRows={2}
                maxRows={6}
                error={fields['offlineCertificate.privateKeyPem']?.[0]}
              />
            </Group>
            {error ? <Alert color="red">{error}</Alert> : null}
            <Group>
              <SubmitButton state={button.state} onClick={save} data-testid="ksef-save">
                {t('settings.save')}
              </SubmitButton>
            </Group>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
