import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  API_KEY_RATE_LIMIT,
  type ApiKey,
  type ApiKeyScope,
} from '../../../shared/contracts/api/integrations';
import { useEditorForm } from '../../ui/use-editor-form';
import { useStudioDateTime } from '../use-studio-date-time';
import { useApiKeys, useIntegrationCalls } from './integrations.api';
import { failure, SecretModal, useConfirm } from './shared';

function KeyForm({
  editing,
  onClose,
  onIssued,
}: {
  editing: ApiKey | 'new';
  onClose: () => void;
  onIssued: (secret: string) => void;
}) {
  const { t } = useTranslation('integrations');
  const calls = useIntegrationCalls();
  const existing = editing === 'new' ? null : editing;
  const form = useEditorForm(() => ({
    name: existing?.name ?? '',
    scope: (existing?.scope ?? 'read') as ApiKeyScope,
    rateLimitPerMinute: existing?.rateLimitPerMinute ?? API_KEY_RATE_LIMIT.default,
  }));
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const saved = await calls.putApiKey({ ...(existing ? { id: existing.id } : {}), ...form.values });
      onClose();
      if (saved.secret) onIssued(saved.secret);
    } catch (e) {
      const f = failure(e, t);
      form.setErrors(f.fields);
      setFormError(f.form);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={existing ? t('keys.edit') : t('keys.create')} centered>
      <form onSubmit={submit} data-testid="api-key-form" noValidate>
        <Stack>
          {formError && <Alert color="red">{formError}</Alert>}
          <TextInput
            label={t('keys.name')}
            description={t('keys.nameHint')}
            value={form.values.name}
            onChange={(e) => form.set('name', e.currentTarget.value)}
            error={form.errors.name}
            data-testid="api-key-name"
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('keys.scope')}
            </Text>
            <SegmentedControl
              value={form.values.scope}
              onChange={(v) => form.set('scope', v as ApiKeyScope)}
              data={[
                { value: 'read', label: t('keys.scopes.read') },
                { value: 'read_write', label: t('keys.scopes.read_write') },
              ]}
              data-testid="api-key-scope"
            />
            {form.errors.scope && (
              <Text size="xs" c="red">
                {form.errors.scope}
              </Text>
            )}
          </Stack>
          <NumberInput
            label={t('keys.rateLimit')}
            min={API_KEY_RATE_LIMIT.min}
            max={API_KEY_RATE_LIMIT.max}
            value={form.values.rateLimitPerMinute}
            onChange={(v) => form.set('rateLimitPerMinute', Number(v) || API_KEY_RATE_LIMIT.default)}
            error={form.errors.rateLimitPerMinute}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="api-key-save">
              {existing ? t('form.save') : t('keys.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The studio's public API keys: issue (the secret shown once), rename, rotate, revoke; last use. */
export function ApiKeysSection({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('integrations');
  const keys = useApiKeys();
  const calls = useIntegrationCalls();
  const when = useStudioDateTime();
  const { confirm, modal } = useConfirm();
  const [editing, setEditing] = useState<ApiKey | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const items = keys.data?.items ?? [];
  return (
    <Card withBorder padding="lg" data-testid="api-keys">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <div>
            <Title order={3}>{t('keys.title')}</Title>
            <Text size="sm" c="dimmed">
              {t('keys.intro')}{' '}
              <a href="/docs/api" target="_blank" rel="noreferrer">
                {t('keys.docs')}
              </a>
            </Text>
          </div>
          {canEdit && (
            <Button onClick={() => setEditing('new')} data-testid="api-key-new">
              {t('keys.create')}
            </Button>
          )}
        </Group>
        {keys.error && <Alert color="red">{t('errors.loadFailed')}</Alert>}
        {items.length === 0 && !keys.isLoading ? (
          <Text c="dimmed">{t('keys.none')}</Text>
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('keys.name')}</Table.Th>
                  <Table.Th>{t('keys.key')}</Table.Th>
                  <Table.Th miw={160}>{t('keys.scope')}</Table.Th>
                  <Table.Th>{t('keys.lastUsed')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((key) => (
                  <Table.Tr key={key.id} data-testid="api-key-row">
                    <Table.Td>
                      <Text fw={500}>{key.name}</Text>
                      <Text size="xs" c="dimmed">
                        {t('keys.created', { when: when(key.createdAt) })}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text ff="monospace" size="sm">
                        {key.prefix}…
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {key.revokedAt ? (
                        <Badge color="gray">{t('keys.revoked')}</Badge>
                      ) : (
                        <Badge
                          color={key.scope === 'read' ? 'blue' : 'orange'}
                          variant="light"
                          styles={{ root: { overflow: 'visible' }, label: { overflow: 'visible' } }}
                        >
                          {t(`keys.scopes.${key.scope}`)}
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{key.lastUsedAt ? when(key.lastUsedAt) : t('keys.never')}</Text>
                    </Table.Td>
                    <Table.Td>
                      {canEdit && !key.revokedAt && (
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button size="xs" variant="default" onClick={() => setEditing(key)}>
                            {t('form.edit')}
                          </Button>
                          <Button
                            size="xs"
                            variant="default"
                            data-testid="api-key-rotate"
                            onClick={() =>
                              confirm(t('keys.rotateConfirm', { name: key.name }), async () => {
                                const r = await calls.putApiKey({
                                  id: key.id,
                                  name: key.name,
                                  scope: key.scope,
                                  rateLimitPerMinute: key.rateLimitPerMinute,
                                  rotate: true,
                                });
                                if (r.secret) setSecret(r.secret);
                              })
                            }
                          >
                            {t('keys.rotate')}
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            variant="light"
                            data-testid="api-key-revoke"
                            onClick={() =>
                              confirm(t('keys.revokeConfirm', { name: key.name }), () =>
                                calls.revokeApiKey(key.id),
                              )
                            }
                          >
                            {t('keys.revoke')}
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {editing && <KeyForm editing={editing} onClose={() => setEditing(null)} onIssued={setSecret} />}
      {secret && (
        <SecretModal
          title={t('keys.secretTitle')}
          note={t('keys.secretNote')}
          secret={secret}
          onClose={() => setSecret(null)}
        />
      )}
      {modal}
    </Card>
  );
}
