import { Alert, Badge, Button, Group, Modal, Paper, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DuplicateCandidate } from '../../../shared/contracts/api/client-records';
import type { ClientSearchItem } from '../../../shared/contracts/api/clients';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { recordCalls, useDuplicates, useInvalidateRecords } from './client-records.api';
import type { ClientRecordProps } from './DocumentsTab';
import { ListEmpty } from '../list-frame';

const name = (c: Pick<ClientSearchItem, 'firstName' | 'lastName'>) => `${c.firstName} ${c.lastName}`.trim();

/**
 * Merges one duplicate into one kept client (staff choose which one stays), or links the two when
 * both sign in with their own account. The server refuses what cannot be merged; its reason is shown.
 */
export function MergeDuplicateDialog({
  studioUuid,
  clientId,
  candidate,
  opened,
  onClose,
}: ClientRecordProps & { candidate: DuplicateCandidate | null; opened: boolean; onClose(): void }) {
  const { t } = useTranslation('client-records');
  const api = useApiClient();
  const duplicates = useDuplicates(studioUuid, clientId);
  const invalidate = useInvalidateRecords(studioUuid, clientId);
  const [keep, setKeep] = useState<'this' | 'other'>('this');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const self = duplicates.data?.client;
  if (!candidate || !self) return null;
  const bothAccounts = self.hasAccount && candidate.hasAccount;
  const keptId = keep === 'this' ? clientId : candidate.id;
  const mergedId = keep === 'this' ? candidate.id : clientId;

  const run = async (action: 'merge' | 'link') => {
    setBusy(true);
    setError(null);
    try {
      if (action === 'merge') await recordCalls.merge(api, studioUuid, keptId, mergedId);
      else await recordCalls.link(api, studioUuid, clientId, candidate.id);
      await invalidate();
      onClose();
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 409
          ? (err.fields.duplicateId?.[0] ?? err.message)
          : t('error'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('merge.title')}
      size="lg"
      data-testid="merge-duplicate-dialog"
    >
      <Stack gap="md">
        <Text size="sm">{t('merge.explain')}</Text>
        <Radio.Group value={keep} onChange={(v) => setKeep(v as 'this' | 'other')} label={t('merge.keep')}>
          <Stack gap="xs" mt="xs">
            {(
              [
                ['this', self],
                ['other', candidate],
              ] as const
            ).map(([value, c]) => (
              <Paper key={value} withBorder p="sm" radius="md">
                <Radio
                  value={value}
                  label={
                    <Group gap={6}>
                      <Text fw={500}>{name(c)}</Text>
                      {c.hasAccount ? <Badge size="xs">{t('merge.hasAccount')}</Badge> : null}
                      {c.status === 'archived' ? (
                        <Badge size="xs" color="gray">
                          {t('merge.archived')}
                        </Badge>
                      ) : null}
                    </Group>
                  }
                  description={[c.emailAddress, c.phone].filter(Boolean).join(' · ')}
                />
              </Paper>
            ))}
          </Stack>
        </Radio.Group>
        {bothAccounts ? <Alert color="blue">{t('merge.bothAccounts')}</Alert> : null}
        {error ? (
          <Alert color="red" data-testid="merge-error">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button variant="light" onClick={() => run('link')} loading={busy} disabled={candidate.linked}>
            {t('merge.link')}
          </Button>
          {!bothAccounts ? (
            <Button color="red" onClick={() => run('merge')} loading={busy} data-testid="merge-confirm">
              {t('merge.confirm', { name: name(keep === 'this' ? self : candidate) })}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}

/** The client's possible duplicates (same email or phone), each with Merge or link. */
export function DuplicatesTab({ studioUuid, clientId }: ClientRecordProps) {
  const { t } = useTranslation('client-records');
  const duplicates = useDuplicates(studioUuid, clientId);
  const [picked, setPicked] = useState<DuplicateCandidate | null>(null);
  if (duplicates.isError) return <Alert color="red">{t('error')}</Alert>;
  const items = duplicates.data?.items ?? [];
  return (
    <Stack gap="sm" maw={760} data-testid="client-duplicates">
      {duplicates.data && items.length === 0 ? <ListEmpty text={t('duplicates.empty')} /> : null}
      {items.map((c) => (
        <Paper key={c.id} withBorder p="sm" radius="md" data-testid="client-duplicate">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={2}>
              <Group gap={6}>
                <Text fw={500}>{name(c)}</Text>
                {c.linked ? <Badge size="xs">{t('duplicates.linked')}</Badge> : null}
              </Group>
              <Text size="xs" c="dimmed">
                {c.matchedBy.map((m) => t(`duplicates.matchedBy.${m}`)).join(', ')} ·{' '}
                {[c.emailAddress, c.phone].filter(Boolean).join(' · ')}
              </Text>
            </Stack>
            <Button
              size="xs"
              variant="light"
              onClick={() => setPicked(c)}
              data-testid="client-duplicate-merge"
            >
              {t('duplicates.resolve')}
            </Button>
          </Group>
        </Paper>
      ))}
      <MergeDuplicateDialog
        studioUuid={studioUuid}
        clientId={clientId}
        candidate={picked}
        opened={picked !== null}
        onClose={() => setPicked(null)}
      />
    </Stack>
  );
}
