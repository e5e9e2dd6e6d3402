import { Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { csvDelimiterForLocale } from '../../../shared/domain/clients/csv';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useSubmitButton } from '../../ui/use-submit-button';
import { toExportBody, type ClientListFilters } from './client-filters';
import { downloadFile, usePhone, useStudioUuid } from './clients.api';

export type ExportTarget =
  { kind: 'filters'; filters: ClientListFilters } | { kind: 'selection'; clientIds: string[] };

/**
 * Export of the filtered list (`POST client/export`) or of chosen clients (`POST client/bulk`
 * export): the format when the API offers more than CSV, and the CSV delimiter (`,` or `;`,
 * preset by the language, as spreadsheets in Polish expect `;`).
 */
export function ExportDialog({
  opened,
  onClose,
  formats,
  target,
}: {
  opened: boolean;
  onClose(): void;
  formats: readonly string[];
  target: ExportTarget;
}) {
  const { t } = useTranslation('clients');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={t('export.title')} fullScreen={phone}>
      {opened ? <ExportForm formats={formats} target={target} onDone={onClose} /> : null}
    </Modal>
  );
}

function ExportForm({
  formats,
  target,
  onDone,
}: {
  formats: readonly string[];
  target: ExportTarget;
  onDone(): void;
}) {
  const { t, i18n } = useTranslation('clients');
  const api = useApiClient();
  const studio = useStudioUuid();
  const button = useSubmitButton();
  const [format, setFormat] = useState(formats[0] ?? 'csv');
  const [delimiter, setDelimiter] = useState<',' | ';'>(csvDelimiterForLocale(i18n.language));
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const errors = failure ? toFormErrors(failure.error, t, { unexpected: 'withCode' }).form : [];
  const csv = format === 'csv';

  const run = () =>
    void button
      .run(() => {
        setFailure(null);
        const name = `clients.${format}`;
        if (target.kind === 'selection')
          return downloadFile(
            api,
            `${studio}/client/bulk`,
            { action: 'export', clientIds: target.clientIds, format, ...(csv ? { delimiter } : {}) },
            name,
          );
        const { delimiter: _chosen, ...body } = toExportBody(target.filters, { delimiter, format });
        return downloadFile(api, `${studio}/client/export`, csv ? { ...body, delimiter } : body, name);
      })
      .then((outcome) => {
        if (!outcome.accepted) return;
        if (outcome.ok) onDone();
        else setFailure({ error: outcome.error });
      });

  return (
    <Stack gap="md" data-testid="clients-export-form">
      <Text size="sm" c="dimmed">
        {target.kind === 'filters'
          ? t('export.introFilters')
          : t('export.introSelection', { count: target.clientIds.length })}
      </Text>
      {formats.length > 1 ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('export.format')}
          </Text>
          <SegmentedControl
            value={format}
            onChange={setFormat}
            data={formats.map((value) => ({
              value,
              label: t(`export.formats.${value}`, { defaultValue: value.toUpperCase() }),
            }))}
            data-testid="clients-export-format"
          />
        </Stack>
      ) : null}
      {csv ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('export.delimiter')}
          </Text>
          <SegmentedControl
            value={delimiter}
            onChange={(value) => setDelimiter(value as ',' | ';')}
            data={[
              { value: ',', label: t('export.comma') },
              { value: ';', label: t('export.semicolon') },
            ]}
            data-testid="clients-export-delimiter"
          />
        </Stack>
      ) : null}
      <FormErrorList errors={errors} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('actions.cancel')}
        </Button>
        <SubmitButton type="button" state={button.state} onClick={run} data-testid="clients-export-submit">
          {t('export.submit')}
        </SubmitButton>
      </Group>
    </Stack>
  );
}
