import { Alert, Anchor, Badge, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { IdentityReaderResult } from '../../../shared/contracts/api/client-accounts';
import { ClientAccountsApi } from '../../../shared/contracts/http/client-accounts';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { usePhone, useStudioUuid } from '../clients/clients.api';

/**
 * The front desk's reader (spec §7 GET identity-reader): a USB card reader types the card's number
 * and Enter into the focused field, as does a QR scanner with the client's code; a person can type
 * it too. A current client's profile opens at once; an archived client or an unknown card is said
 * here, and the field is emptied for the next card.
 */
export function IdentityReaderDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('clients');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={t('reader.title')} fullScreen={phone}>
      {opened ? <ReaderForm onClose={onClose} /> : null}
    </Modal>
  );
}

function ReaderForm({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<{ code: string; result: IdentityReaderResult } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const read = useMutation({
    mutationFn: (value: string) =>
      api.call(ClientAccountsApi.identityReader, { params: { uuid: studio }, query: { code: value } }),
    onSuccess: (result, value) => {
      setError(null);
      const client = result.match?.client;
      if (client && !client.archived) {
        onClose();
        navigate(`/clients/${client.id}`);
        return;
      }
      setOutcome({ code: value, result });
      setCode('');
      input.current?.focus();
    },
    onError: (err) => {
      setOutcome(null);
      const errors = toFormErrors(err, t);
      setError(
        errors.fields['query.code'] ? t('reader.invalid') : errors.form.join(' ') || t('reader.failed'),
      );
      input.current?.select();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (value) read.mutate(value);
  };
  const archived = outcome?.result.match?.client;
  return (
    <form onSubmit={submit} noValidate data-testid="identity-reader">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('reader.intro')}
        </Text>
        <TextInput
          ref={input}
          label={t('reader.code')}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          error={error}
          data-testid="identity-reader-code"
        />
        {outcome && !archived ? (
          <Alert color="yellow" variant="light" data-testid="identity-reader-unknown">
            {t('reader.unknown', { code: outcome.code })}
          </Alert>
        ) : null}
        {archived ? (
          <Alert color="gray" variant="light" data-testid="identity-reader-archived">
            <Group gap="xs">
              <Anchor component={Link} to={`/clients/${archived.id}`} onClick={onClose} fw={600}>
                {`${archived.firstName} ${archived.lastName}`.trim()}
              </Anchor>
              <Badge color="gray" size="sm">
                {t('reader.archived')}
              </Badge>
            </Group>
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={read.isPending} data-testid="identity-reader-submit">
            {t('reader.find')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
