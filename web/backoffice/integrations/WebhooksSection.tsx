import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import {
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../../shared/contracts/api/integrations';
import { useEditorForm } from '../../ui/use-editor-form';
import { useStudioDateTime } from '../use-studio-date-time';
import { useIntegrationCalls, useWebhooks } from './integrations.api';
import { DeliveryStatus, failure, SecretModal, useConfirm } from './shared';

function WebhookForm({ editing, onClose }: { editing: WebhookEndpoint | 'new'; onClose: () => void }) {
  const { t } = useTranslation('integrations');
  const calls = useIntegrationCalls();
  const existing = editing === 'new' ? null : editing;
  const form = useEditorForm(() => ({
    url: existing?.url ?? '',
    description: existing?.description ?? '',
    events: (existing?.events ?? []) as WebhookEventType[],
    enabled: existing?.enabled ?? true,
  }));
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await calls.putWebhook({ ...(existing ? { id: existing.id } : {}), ...form.values });
      onClose();
    } catch (e) {
      const f = failure(e, t);
      form.setErrors(f.fields);
      setFormError(f.form);
    } finally {
      setBusy(false);
    }
  };
  const toggle = (event: WebhookEventType, on: boolean) =>
    form.set('events', on ? [...form.values.events, event] : form.values.events.filter((e) => e !== event));
  return (
    <Modal
      opened
      onClose={onClose}
      title={existing ? t('webhooks.edit') : t('webhooks.create')}
      centered
      size="lg"
    >
      <form onSubmit={submit} data-testid="webhook-form" noValidate>
        <Stack>
          {formError && <Alert color="red">{formError}</Alert>}
          <TextInput
            label={t('webhooks.url')}
            placeholder="https://example.com/webhooks/studio"
            value={form.values.url}
            onChange={(e) => form.set('url', e.currentTarget.value)}
            error={form.errors.url}
            data-testid="webhook-url"
          />
          <TextInput
            label={t('webhooks.description')}
            value={form.values.description}
            onChange={(e) => form.set('description', e.currentTarget.value)}
            error={form.errors.description}
          />
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('webhooks.events')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6}>
              {WEBHOOK_EVENTS.map((event) => (
                <Checkbox
                  key={event}
                  label={t(`events.${event.replace('.', '_')}`)}
                  checked={form.values.events.includes(event)}
                  onChange={(e) => toggle(event, e.currentTarget.checked)}
                  data-testid={`webhook-event-${event}`}
                />
              ))}
            </SimpleGrid>
            {form.errors.events && (
              <Text size="xs" c="red">
                {form.errors.events}
              </Text>
            )}
          </Stack>
          <Switch
            label={t('webhooks.enabled')}
            checked={form.values.enabled}
            onChange={(e) => form.set('enabled', e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="webhook-save">
              {t('form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The studio's webhook endpoints: events, state, the signing secret, a test event, the delivery log. */
export function WebhooksSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('integrations');
  const hooks = useWebhooks();
  const calls = useIntegrationCalls();
  const when = useStudioDateTime();
  const { confirm, modal } = useConfirm();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const items = hooks.data?.items ?? [];
  return (
    <Card withBorder padding="lg" data-testid="webhooks">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={3}>{t('webhooks.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('webhooks.intro')}
            </Text>
          </div>
          {canEdit && (
            <Button onClick={() => setEditing('new')} data-testid="webhook-new">
              {t('webhooks.create')}
            </Button>
          )}
        </Group>
        {hooks.error && <Alert color="red">{t('errors.loadFailed')}</Alert>}
        {note && (
          <Alert color="green" withCloseButton onClose={() => setNote(null)}>
            {note}
          </Alert>
        )}
        {items.length === 0 && !hooks.isLoading && <Text c="dimmed">{t('webhooks.none')}</Text>}
        {items.map((hook) => (
          <Card key={hook.id} withBorder padding="md" data-testid="webhook-row">
            <Stack gap="xs">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                  {hook.url}
                </Text>
                {hook.enabled ? (
                  <Badge color="green" variant="light">
                    {t('webhooks.on')}
                  </Badge>
                ) : (
                  <Badge color={hook.disabledReason ? 'red' : 'gray'} variant="light">
                    {hook.disabledReason ? t('webhooks.offFailing') : t('webhooks.off')}
                  </Badge>
                )}
              </Group>
              {hook.description && <Text size="sm">{hook.description}</Text>}
              <Group gap={4}>
                {hook.events.map((e) => (
                  <Badge key={e} variant="outline" size="sm">
                    {e}
                  </Badge>
                ))}
              </Group>
              {hook.lastDelivery && (
                <Group gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('webhooks.lastDelivery', { when: when(hook.lastDelivery.at) })}
                  </Text>
                  <DeliveryStatus status={hook.lastDelivery.status} />
                </Group>
              )}
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="light"
                  component={Link}
                  to={`/integrations/webhooks/${hook.id}`}
                  data-testid="webhook-log"
                >
                  {t('webhooks.log')}
                </Button>
                {canEdit && (
                  <>
                    <Button size="xs" variant="default" onClick={() => setEditing(hook)}>
                      {t('form.edit')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      disabled={!hook.enabled}
                      onClick={async () => {
                        await calls.test(hook.id);
                        setNote(t('webhooks.testSent'));
                      }}
                    >
                      {t('webhooks.test')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={async () => setSecret((await calls.token(hook.id, false)).secret)}
                    >
                      {t('webhooks.secret')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        confirm(t('webhooks.rotateConfirm'), async () =>
                          setSecret((await calls.token(hook.id, true)).secret),
                        )
                      }
                    >
                      {t('webhooks.rotate')}
                    </Button>
                    {!hook.enabled && (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => calls.patchWebhook(hook.id, { enabled: true })}
                      >
                        {t('webhooks.switchOn')}
                      </Button>
                    )}
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={() => confirm(t('webhooks.deleteConfirm'), () => calls.deleteWebhook(hook.id))}
                    >
                      {t('webhooks.delete')}
                    </Button>
                  </>
                )}
              </Group>
            </Stack>
          </Card>
        ))}
      </Stack>
      {editing && <WebhookForm editing={editing} onClose={() => setEditing(null)} />}
      {secret && (
        <SecretModal
          title={t('webhooks.secretTitle')}
          note={t('webhooks.secretNote')}
          secret={secret}
          onClose={() => setSecret(null)}
        />
      )}
      {modal}
    </Card>
  );
}
