import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookDelivery } from '../../../shared/contracts/api/integrations';
import { ApiError } from '../../lib/api-client';

/** Field errors of a 400 keyed by the payload's paths; anything else one form-level message. */
export function failure(
  error: unknown,
  t: (k: string) => string,
): { fields: Record<string, string>; form: string | null } {
  if (error instanceof ApiError && error.status === 400)
    return {
      fields: Object.fromEntries(Object.entries(error.fields).map(([k, v]) => [k, v[0] ?? ''])),
      form: Object.keys(error.fields).length ? null : t('errors.saveFailed'),
    };
  if (error instanceof ApiError && [401, 403, 405].includes(error.status))
    return { fields: {}, form: t('errors.noPermission') };
  if (error instanceof ApiError && error.status === 409)
    return { fields: {}, form: t(`errors.${error.key}`) };
  return { fields: {}, form: t('errors.saveFailed') };
}

/** A secret shown once (a new or rotated API key) or on request (a webhook's signing secret). */
export function SecretModal(props: { title: string; secret: string; note: string; onClose: () => void }) {
  const { t } = useTranslation('integrations');
  return (
    <Modal opened onClose={props.onClose} title={props.title} centered size="lg">
      <Stack>
        <Alert color="yellow">{props.note}</Alert>
        <Code block data-testid="secret-value" style={{ wordBreak: 'break-all' }}>
          {props.secret}
        </Code>
        <Group justify="flex-end">
          <CopyButton value={props.secret}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t('secret.copied') : t('secret.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={props.onClose} data-testid="secret-done">
            {t('secret.done')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Asks before something that cannot be undone (revoke, delete, rotate). */
export function useConfirm() {
  const { t } = useTranslation('integrations');
  const [ask, setAsk] = useState<{ text: string; run: () => Promise<unknown> } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const modal = ask && (
    <Modal opened onClose={() => setAsk(null)} title={t('confirm.title')} centered>
      <Stack>
        {error && <Alert color="red">{error}</Alert>}
        <Text>{ask.text}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsk(null)}>
            {t('form.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            data-testid="confirm-yes"
            onClick={async () => {
              setBusy(true);
              try {
                await ask.run();
                setAsk(null);
                setError(null);
              } catch (e) {
                setError(failure(e, t).form);
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('confirm.yes')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
  return { confirm: (text: string, run: () => Promise<unknown>) => setAsk({ text, run }), modal };
}

const STATUS_COLOR: Record<WebhookDelivery['status'], string> = {
  pending: 'blue',
  delivered: 'green',
  failed: 'red',
  skipped: 'gray',
};

export function DeliveryStatus({ status }: { status: WebhookDelivery['status'] }) {
  const { t } = useTranslation('integrations');
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {t(`delivery.status.${status}`)}
    </Badge>
  );
}
