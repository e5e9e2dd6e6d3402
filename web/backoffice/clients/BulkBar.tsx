import {
  Affix,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ClientListInit, ClientListItem } from '../../../shared/contracts/api/clients';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { clientCalls, useInvalidateClients, usePhone, useStudioUuid } from './clients.api';
import { localiseClientError } from './ClientStates';
import { ExportDialog } from './ExportDialog';

type BulkAction = 'tag' | 'untag' | 'message' | 'export';

/**
 * The bar shown while clients are selected: the bulk actions the list init offers and the member's
 * role allows (tag/untag: edit; message: message; export: export).
 */
export function BulkBar({
  init,
  selected,
  onClear,
}: {
  init: ClientListInit;
  selected: ClientListItem[];
  onClear(): void;
}) {
  const { t } = useTranslation('clients');
  const phone = usePhone();
  const [action, setAction] = useState<BulkAction | null>(null);
  const { abilities } = init;
  const allowed: Record<BulkAction, boolean> = {
    tag: abilities.canEdit,
    untag: abilities.canEdit,
    message: abilities.canMessage,
    export: abilities.canExport,
  };
  const actions = init.bulkActions.filter((a) => allowed[a]);
  const ids = selected.map((c) => c.id);
  return (
    <>
      <Affix position={{ bottom: 0, left: 0, right: 0 }} zIndex={150}>
        <Paper shadow="md" withBorder p="sm" radius={0} data-testid="clients-bulk-bar">
          <Group justify="space-between" gap="xs" maw={1200} mx="auto" wrap={phone ? 'wrap' : 'nowrap'}>
            <Group gap="xs">
              <Text fw={600} size="sm" data-testid="clients-bulk-count">
                {t('bulk.selected', { count: selected.length })}
              </Text>
              <Button variant="subtle" size="compact-sm" onClick={onClear} data-testid="clients-bulk-clear">
                {t('bulk.clear')}
              </Button>
            </Group>
            <Group gap="xs">
              {actions.map((a) => (
                <Button
                  key={a}
                  size={phone ? 'compact-sm' : 'sm'}
                  variant={a === 'tag' ? 'filled' : 'default'}
                  onClick={() => setAction(a)}
                  data-testid={`clients-bulk-${a}`}
                >
                  {t(`bulk.actions.${a}`)}
                </Button>
              ))}
            </Group>
          </Group>
        </Paper>
      </Affix>
      <Modal
        opened={action === 'tag' || action === 'untag'}
        onClose={() => setAction(null)}
        title={
          action === 'untag'
            ? t('bulk.untagTitle', { count: ids.length })
            : t('bulk.tagTitle', { count: ids.length })
        }
        fullScreen={phone}
      >
        {action === 'tag' || action === 'untag' ? (
          <BulkTagForm
            action={action}
            clientIds={ids}
            tags={init.tags}
            onDone={() => {
              setAction(null);
              onClear();
            }}
          />
        ) : null}
      </Modal>
      <Modal
        opened={action === 'message'}
        onClose={() => setAction(null)}
        title={t('bulk.messageTitle', { count: ids.length })}
        fullScreen={phone}
      >
        {action === 'message' ? <BulkMessageForm clientIds={ids} onDone={() => setAction(null)} /> : null}
      </Modal>
      <ExportDialog
        opened={action === 'export'}
        onClose={() => setAction(null)}
        formats={init.exportFormats}
        target={{ kind: 'selection', clientIds: ids }}
      />
    </>
  );
}

function BulkTagForm({
  action,
  clientIds,
  tags,
  onDone,
}: {
  action: 'tag' | 'untag';
  clientIds: string[];
  tags: ClientListInit['tags'];
  onDone(): void;
}) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  const [tagIds, setTagIds] = useState<string[]>([]);
  const form = useServerForm({
    initialValues: { tagIds: '' },
    submit: () =>
      clientCalls.bulkTag(api, studio, action, clientIds, tagIds).catch((error: unknown) => {
        throw localiseClientError(error, t);
      }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
  });
  return (
    <form {...form.formProps} data-testid="clients-bulk-tag-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        {tags.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('bulk.noTags')}
          </Text>
        ) : null}
        <MultiSelect
          label={t('fields.tags')}
          data={tags.map((tag) => ({ value: tag.id, label: tag.name }))}
          value={tagIds}
          onChange={setTagIds}
          error={form.fieldErrors.tagIds}
          searchable
          maxValues={20}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
          data-testid="clients-bulk-tags"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <SubmitButton
            state={form.buttonState}
            disabled={tagIds.length === 0}
            data-testid="clients-bulk-tag-submit"
          >
            {action === 'tag' ? t('bulk.tagSubmit') : t('bulk.untagSubmit')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

function BulkMessageForm({ clientIds, onDone }: { clientIds: string[]; onDone(): void }) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [recorded, setRecorded] = useState<number | null>(null);
  const form = useServerForm({
    initialValues: { subject: '', content: '' },
    submit: (values) =>
      clientCalls
        .bulkMessage(api, studio, clientIds, values.subject, values.content)
        .catch((error: unknown) => {
          throw localiseClientError(error, t);
        }),
    onSuccess: (result) => setRecorded('recipients' in result ? result.recipients : clientIds.length),
  });
  if (recorded !== null)
    return (
      <Stack gap="md" data-testid="clients-bulk-message-recorded">
        <Text size="sm">{t('bulk.messageRecorded', { count: recorded })}</Text>
        <Group justify="flex-end">
          <Button onClick={onDone}>{t('actions.close')}</Button>
        </Group>
      </Stack>
    );
  return (
    <form {...form.formProps} data-testid="clients-bulk-message-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('bulk.messageIntro')}
        </Text>
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.getInputProps('subject')}
          label={t('bulk.subject')}
          required
          maxLength={200}
          data-autofocus
        />
        <Textarea
          name="content"
          value={form.values.content}
          onChange={(event) => form.setValue('content', event.currentTarget.value)}
          error={form.fieldErrors.content}
          label={t('bulk.content')}
          required
          autosize
          minRows={4}
          maxRows={12}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('actions.cancel')}
          </Button>
          <SubmitButton state={form.buttonState} data-testid="clients-bulk-message-submit">
            {t('bulk.messageSubmit')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
