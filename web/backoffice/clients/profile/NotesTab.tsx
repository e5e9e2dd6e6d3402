import { Badge, Button, Card, Group, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTE_MAX, type ClientNoteView } from '../../../../shared/contracts/api/clients';
import { useApiClient } from '../../../lib/app-context';
import { FormErrorList } from '../../../ui/FormErrorList';
import { SubmitButton } from '../../../ui/SubmitButton';
import { useServerForm } from '../../../ui/use-server-form';
import { useBackoffice } from '../../backoffice.api';
import { ConfirmDialog } from '../../staff/MemberDialogs';
import { clientCalls, useInvalidateClients, useStudioUuid } from '../clients.api';
import { localiseClientError } from '../ClientStates';
import { formatDateTime } from '../format';
import type { ClientProfileTabProps } from '../profile-tabs';
import { ListEmpty } from '../../list-frame';

type NoteType = ClientNoteView['type'];

/** The client's notes, newest first (the profile call's newest 50): add, edit, delete. */
export function NotesTab({ clientId, profile }: ClientProfileTabProps) {
  const { t } = useTranslation('clients');
  const canEdit = profile.abilities.canEdit;
  const [deleting, setDeleting] = useState<ClientNoteView | null>(null);
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  return (
    <Stack gap="md" maw={760}>
      {canEdit ? <NoteForm clientId={clientId} /> : null}
      {profile.notes.length === 0 ? (
        <ListEmpty text={t('notes.empty')} testId="client-notes-empty" />
      ) : (
        <Stack gap="sm" data-testid="client-notes">
          {profile.notes.map((note) => (
            <NoteCard key={note.id} note={note} canEdit={canEdit} onDelete={() => setDeleting(note)} />
          ))}
        </Stack>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('notes.deleteTitle')}
        text={t('notes.deleteText')}
        submitLabel={t('actions.delete')}
        onConfirm={async () => {
          await clientCalls.deleteNote(api, studio, deleting!.id);
          await invalidate();
        }}
        onClose={() => setDeleting(null)}
        testId="client-note-delete-confirm"
      />
    </Stack>
  );
}

function TypePicker({ value, onChange }: { value: NoteType; onChange(value: NoteType): void }) {
  const { t } = useTranslation('clients');
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v as NoteType)}
      data={[
        { value: 'private', label: t('enums:clientNoteType.private') },
        { value: 'public', label: t('enums:clientNoteType.public') },
      ]}
      data-testid="client-note-type"
    />
  );
}

function NoteForm({ clientId }: { clientId: string }) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  // Remounted after each save so the form starts empty again.
  const [generation, setGeneration] = useState(0);
  return (
    <NoteEditor
      key={generation}
      initial={{ type: 'private', content: '' }}
      submitLabel={t('notes.add')}
      testId="client-note-add"
      save={(values) => clientCalls.addNote(api, studio, { userId: clientId, ...values })}
      onSaved={() => {
        void invalidate();
        setGeneration((g) => g + 1);
      }}
    />
  );
}

function NoteEditor({
  initial,
  submitLabel,
  testId,
  save,
  onSaved,
  onCancel,
}: {
  initial: { type: NoteType; content: string };
  submitLabel: string;
  testId: string;
  save(values: { type: NoteType; content: string }): Promise<unknown>;
  onSaved(): void;
  onCancel?(): void;
}) {
  const { t } = useTranslation('clients');
  const form = useServerForm({
    initialValues: { type: initial.type as string, content: initial.content },
    submit: (values) =>
      save({ type: values.type as NoteType, content: values.content }).catch((error: unknown) => {
        throw localiseClientError(error, t);
      }),
    onSuccess: onSaved,
  });
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="form"
      {...form.formProps}
      data-testid={`${testId}-form`}
    >
      <Stack gap="sm">
        <FormErrorList errors={form.formErrors} />
        <Textarea
          name="content"
          aria-label={t('notes.content')}
          placeholder={t('notes.placeholder')}
          value={form.values.content}
          onChange={(event) => form.setValue('content', event.currentTarget.value)}
          error={form.fieldErrors.content}
          maxLength={NOTE_MAX}
          autosize
          minRows={2}
          maxRows={10}
          data-testid={`${testId}-content`}
        />
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <TypePicker value={form.values.type as NoteType} onChange={(v) => form.setValue('type', v)} />
            <Text size="xs" c="dimmed">
              {form.values.type === 'public' ? t('notes.publicHint') : t('notes.privateHint')}
            </Text>
          </Group>
          <Group gap="xs">
            {onCancel ? (
              <Button variant="default" size="compact-sm" onClick={onCancel}>
                {t('actions.cancel')}
              </Button>
            ) : null}
            <SubmitButton
              size="compact-sm"
              state={form.buttonState}
              disabled={form.values.content.trim() === ''}
              data-testid={`${testId}-submit`}
            >
              {submitLabel}
            </SubmitButton>
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

function NoteCard({ note, canEdit, onDelete }: { note: ClientNoteView; canEdit: boolean; onDelete(): void }) {
  const { t, i18n } = useTranslation('clients');
  const { timeZone } = useBackoffice().studio;
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateClients();
  const [editing, setEditing] = useState(false);
  if (editing)
    return (
      <NoteEditor
        initial={{ type: note.type, content: note.content }}
        submitLabel={t('actions.save')}
        testId="client-note-edit"
        save={(values) => clientCalls.editNote(api, studio, note.id, values)}
        onSaved={() => {
          void invalidate();
          setEditing(false);
        }}
        onCancel={() => setEditing(false)}
      />
    );
  const author = note.author
    ? `${note.author.firstName} ${note.author.lastName}`.trim()
    : t('notes.unknownAuthor');
  return (
    <Card withBorder radius="md" padding="md" data-testid="client-note" data-note-type={note.type}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Group gap={6}>
            <Badge
              size="sm"
              variant="light"
              color={note.type === 'public' ? 'blue' : 'gray'}
              style={{ textTransform: 'none' }}
            >
              {t(`enums:clientNoteType.${note.type}`)}
            </Badge>
            <Text size="xs" c="dimmed">
              {author} · {formatDateTime(note.createdAt, i18n.language, timeZone)}
              {note.updatedAt !== note.createdAt ? ` · ${t('notes.edited')}` : ''}
            </Text>
          </Group>
          {canEdit ? (
            <Group gap={2} wrap="nowrap">
              <Button
                size="compact-xs"
                variant="subtle"
                onClick={() => setEditing(true)}
                data-testid="client-note-edit"
              >
                {t('actions.edit')}
              </Button>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={onDelete}
                data-testid="client-note-delete"
              >
                {t('actions.delete')}
              </Button>
            </Group>
          ) : null}
        </Group>
        <Text
          size="sm"
          style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          data-testid="client-note-content"
        >
          {note.content}
        </Text>
      </Stack>
    </Card>
  );
}
