import {
  Alert,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SERIAL_BAUD_RATES, type FiscalPrinter } from '../../../shared/contracts/api/fiscal-printers';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors, type FormErrorOptions } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import {
  fiscalPrinterCalls,
  formValuesOf,
  inputOf,
  useInvalidateFiscalPrinters,
  type PrinterFormValues,
} from './fiscal-printers.api';

const ERROR_OPTIONS: FormErrorOptions = {
  unexpected: 'savingSettings',
  messagesByKey: { 'resource.conflict': 'settings:fiscalPrinters.form.stationTaken' },
};

function usePhone(): boolean {
  return useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
}

/** Add (printer 'new') or edit a station's fiscal printer. */
export function PrinterFormDialog({
  printer,
  onClose,
}: {
  printer: FiscalPrinter | 'new' | null;
  onClose(): void;
}) {
  const { t } = useTranslation('settings');
  const phone = usePhone();
  const existing = printer && printer !== 'new' ? printer : null;
  return (
    <Modal
      opened={printer !== null}
      onClose={onClose}
      fullScreen={phone}
      size="lg"
      title={
        existing
          ? t('fiscalPrinters.form.editTitle', { name: existing.name })
          : t('fiscalPrinters.form.addTitle')
      }
    >
      {printer !== null ? (
        <PrinterForm key={existing?.id ?? 'new'} printer={existing} onDone={onClose} />
      ) : null}
    </Modal>
  );
}

function PrinterForm({ printer, onDone }: { printer: FiscalPrinter | null; onDone(): void }) {
  const { t } = useTranslation('settings');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateFiscalPrinters();
  const form = useServerForm<PrinterFormValues, FiscalPrinter>({
    initialValues: formValuesOf(printer),
    submit: (values) =>
      printer
        ? fiscalPrinterCalls.update(api, studio, printer.id, inputOf(values))
        : fiscalPrinterCalls.create(api, studio, inputOf(values)),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: ERROR_OPTIONS,
  });
  const kind = form.values['connection.kind'];
  const select = (name: keyof PrinterFormValues & string, data: Array<{ value: string; label: string }>) => ({
    name,
    data,
    value: form.values[name],
    onChange: (value: string | null) => form.setValue(name, value ?? ''),
    error: form.fieldErrors[name],
    allowDeselect: false,
    comboboxProps: { withinPortal: true },
  });

  return (
    <form {...form.formProps} data-testid="fiscal-printer-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.getInputProps('name')}
          label={t('fiscalPrinters.form.name')}
          placeholder={t('fiscalPrinters.form.namePlaceholder')}
          required
          data-autofocus
        />
        <TextInput
          {...form.getInputProps('stationSlug')}
          label={t('fiscalPrinters.form.stationSlug')}
          description={t('fiscalPrinters.form.stationSlugHint')}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          required
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('fiscalPrinters.form.kind')}
          </Text>
          <SegmentedControl
            value={kind}
            onChange={(value) => form.setValue('connection.kind', value)}
            data={[
              { value: 'serial', label: t('fiscalPrinters.serial') },
              { value: 'tcp', label: t('fiscalPrinters.tcp') },
            ]}
            data-testid="fiscal-printer-kind"
          />
        </Stack>
        {kind === 'serial' ? (
          <>
            <Text size="xs" c="dimmed">
              {t('fiscalPrinters.form.serialHint')}
            </Text>
            <TextInput
              {...form.getInputProps('connection.path')}
              label={t('fiscalPrinters.form.path')}
              placeholder={t('fiscalPrinters.form.pathPlaceholder')}
              autoCapitalize="off"
              spellCheck={false}
              required
            />
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
              <Select
                label={t('fiscalPrinters.form.baudRate')}
                {...select(
                  'connection.baudRate',
                  SERIAL_BAUD_RATES.map((rate) => ({ value: String(rate), label: String(rate) })),
                )}
              />
              <Select
                label={t('fiscalPrinters.form.parity')}
                {...select(
                  'connection.parity',
                  (['none', 'even', 'odd', 'mark', 'space'] as const).map((p) => ({
                    value: p,
                    label: t(`fiscalPrinters.form.parityOptions.${p}`),
                  })),
                )}
              />
              <Select
                label={t('fiscalPrinters.form.dataBits')}
                {...select('connection.dataBits', [
                  { value: '8', label: '8' },
                  { value: '7', label: '7' },
                ])}
              />
              <Select
                label={t('fiscalPrinters.form.stopBits')}
                {...select('connection.stopBits', [
                  { value: '1', label: '1' },
                  { value: '2', label: '2' },
                ])}
              />
              <Select
                label={t('fiscalPrinters.form.flowControl')}
                {...select(
                  'connection.flowControl',
                  (['none', 'rtscts', 'xonxoff'] as const).map((f) => ({
                    value: f,
                    label: t(`fiscalPrinters.form.flowOptions.${f}`),
                  })),
                )}
              />
            </SimpleGrid>
          </>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              {...form.getInputProps('connection.host')}
              label={t('fiscalPrinters.form.host')}
              placeholder="192.168.1.50"
              autoCapitalize="off"
              spellCheck={false}
              required
            />
            <TextInput
              {...form.getInputProps('connection.port')}
              label={t('fiscalPrinters.form.port')}
              inputMode="numeric"
              required
            />
          </SimpleGrid>
        )}
        <Group justify="flex-end">
          <SubmitButton state={form.buttonState} data-testid="fiscal-printer-submit">
            {t('fiscalPrinters.form.save')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

export function DeletePrinterDialog({
  printer,
  onClose,
}: {
  printer: FiscalPrinter | null;
  onClose(): void;
}) {
  const { t } = useTranslation('settings');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateFiscalPrinters();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string[]>([]);
  const remove = async () => {
    if (!printer) return;
    setBusy(true);
    setError([]);
    try {
      await fiscalPrinterCalls.remove(api, studio, printer.id);
      await invalidate();
      onClose();
    } catch (err) {
      setError(toFormErrors(err, t, ERROR_OPTIONS).form);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      opened={printer !== null}
      onClose={onClose}
      title={printer ? t('fiscalPrinters.deleteConfirm.title', { name: printer.name }) : ''}
    >
      <Stack gap="md">
        <Text size="sm">{t('fiscalPrinters.deleteConfirm.text')}</Text>
        {error.length ? (
          <Alert color="red" variant="light">
            {error.join(' ')}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('fiscalPrinters.deleteConfirm.cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            onClick={() => void remove()}
            data-testid="fiscal-printer-delete-confirm"
          >
            {t('fiscalPrinters.deleteConfirm.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
