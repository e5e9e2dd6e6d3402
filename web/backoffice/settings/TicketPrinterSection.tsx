import {
  Alert,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  NO_TICKET_PRINTER,
  TICKET_PRINTER_DEFAULT_PORT,
  TICKET_PRINTER_KINDS,
  TICKET_PRINTER_WIDTHS,
  type TicketPrinter,
  type TicketPrinterKind,
} from '../../../shared/contracts/api/ticket-printers';
import { fitToForm, toFormErrors, type FormErrors, type Translate } from '../../lib/form-errors';

const FIELDS = ['kind', 'address', 'port', 'widthChars', 'cut'];

/** The shared schema's English field messages → this section's keys (shown in EN or PL). */
const MESSAGE_KEYS: Record<string, string> = {
  required: 'ticketPrinter.errors.required',
  'a host name or IP address': 'ticketPrinter.errors.host',
  'between 1 and 65535': 'ticketPrinter.errors.port',
  'an absolute device path': 'ticketPrinter.errors.path',
  '32, 42 or 48': 'ticketPrinter.errors.width',
};

const NO_ERRORS: FormErrors = { fields: {}, form: [] };

function formErrorsOf(error: unknown, t: Translate): FormErrors {
  const found = fitToForm(toFormErrors(error, t), FIELDS);
  for (const [field, message] of Object.entries(found.fields)) {
    const key = MESSAGE_KEYS[message];
    if (key) found.fields[field] = t(`stations:${key}`);
  }
  return found;
}

/** One line for a card: "Network printer · 192.168.1.50:9100 · 48 characters". */
export function ticketPrinterSummary(printer: TicketPrinter | undefined, t: Translate): string {
  if (!printer || printer.kind === 'none') return t('stations:ticketPrinter.none');
  const where =
    printer.kind === 'tcp'
      ? `${printer.address}:${printer.port ?? TICKET_PRINTER_DEFAULT_PORT}`
      : printer.address;
  return [
    t(`stations:ticketPrinter.kind.${printer.kind}`),
    where,
    t('stations:ticketPrinter.widthShort', { count: printer.widthChars }),
  ].join(' · ');
}

interface Draft {
  kind: TicketPrinterKind;
  address: string;
  port: number | string;
  widthChars: string;
  cut: boolean;
}

const draftOf = (printer: TicketPrinter | undefined): Draft => {
  const p = printer ?? NO_TICKET_PRINTER;
  return {
    kind: p.kind,
    address: p.address,
    port: p.port ?? TICKET_PRINTER_DEFAULT_PORT,
    widthChars: String(p.widthChars),
    cut: p.cut,
  };
};

/**
 * "Ticket printer": the ESC/POS printer a desk station prints on for this POS station (shift
 * summaries, the drawer) or kiosk (check-in slips). Saved on its own (`PUT …/ticket-printer`), so it
 * sits in any editor without joining that editor's form. The desk station picks the change up
 * within minutes and keeps it for offline use (desktop/main/printing/README.md).
 */
export function TicketPrinterSection({
  current,
  save,
  testId,
  framed = true,
}: {
  current: TicketPrinter | undefined;
  save(input: {
    kind: TicketPrinterKind;
    address: string;
    port: number | null;
    widthChars: number;
    cut: boolean;
  }): Promise<unknown>;
  testId: string;
  /** A bordered section with its title (inside another editor); false where a dialog already titles it. */
  framed?: boolean;
}) {
  const { t } = useTranslation('stations');
  const [draft, setDraft] = useState<Draft>(() => draftOf(current));
  // The failure itself is kept, so its messages follow a language switch.
  const [failure, setFailure] = useState<unknown>(null);
  const errors = failure === null ? NO_ERRORS : formErrorsOf(failure, t);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const set = (patch: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...patch }));
  };

  const submit = async () => {
    setBusy(true);
    setFailure(null);
    setSaved(false);
    try {
      await save({
        kind: draft.kind,
        address: draft.kind === 'none' ? '' : draft.address,
        port: draft.kind === 'tcp' && draft.port !== '' ? Number(draft.port) : null,
        widthChars: Number(draft.widthChars),
        cut: draft.cut,
      });
      setSaved(true);
    } catch (e) {
      setFailure(e);
    } finally {
      setBusy(false);
    }
  };

  const printing = draft.kind !== 'none';
  return (
    <Paper withBorder={framed} radius="md" p={framed ? 'md' : 0} data-testid={testId}>
      <Stack gap="sm">
        <div>
          {framed && (
            <Title order={3} size="h5">
              {t('ticketPrinter.title')}
            </Title>
          )}
          <Text size="sm" c="dimmed">
            {t('ticketPrinter.intro')}
          </Text>
        </div>
        <SegmentedControl
          fullWidth
          value={draft.kind}
          onChange={(value) => set({ kind: value as TicketPrinterKind })}
          data={TICKET_PRINTER_KINDS.map((kind) => ({ value: kind, label: t(`ticketPrinter.kind.${kind}`) }))}
          data-testid={`${testId}-kind`}
        />
        {errors.fields.kind && (
          <Text size="sm" c="red">
            {errors.fields.kind}
          </Text>
        )}
        {printing && (
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label={t(draft.kind === 'tcp' ? 'ticketPrinter.host' : 'ticketPrinter.path')}
              description={t(draft.kind === 'tcp' ? 'ticketPrinter.hostHint' : 'ticketPrinter.pathHint')}
              placeholder={draft.kind === 'tcp' ? '192.168.1.50' : '/dev/usb/lp0'}
              value={draft.address}
              maxLength={253}
              onChange={(e) => set({ address: e.currentTarget.value })}
              error={errors.fields.address}
              style={{ flex: '1 1 220px' }}
              data-testid={`${testId}-address`}
            />
            {draft.kind === 'tcp' && (
              <NumberInput
                label={t('ticketPrinter.port')}
                description={t('ticketPrinter.portHint')}
                value={draft.port}
                onChange={(value) => set({ port: value })}
                min={1}
                max={65535}
                allowDecimal={false}
                allowNegative={false}
                clampBehavior="none"
                error={errors.fields.port}
                style={{ flex: '0 0 140px' }}
                data-testid={`${testId}-port`}
              />
            )}
          </Group>
        )}
        {printing && (
          <Group align="flex-end" gap="lg" wrap="wrap">
            <NativeSelect
              label={t('ticketPrinter.width')}
              value={draft.widthChars}
              onChange={(e) => set({ widthChars: e.currentTarget.value })}
              data={TICKET_PRINTER_WIDTHS.map((w) => ({
                value: String(w),
                label: t(`ticketPrinter.widths.${w}`),
              }))}
              error={errors.fields.widthChars}
              data-testid={`${testId}-width`}
            />
            <Switch
              label={t('ticketPrinter.cut')}
              checked={draft.cut}
              onChange={(e) => set({ cut: e.currentTarget.checked })}
              pb={6}
              data-testid={`${testId}-cut`}
            />
          </Group>
        )}
        {errors.form.map((m) => (
          <Alert key={m} color="red" variant="light">
            {m}
          </Alert>
        ))}
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="teal.8" aria-live="polite" data-testid={`${testId}-saved`}>
            {saved ? t('ticketPrinter.saved') : ''}
          </Text>
          <Button
            type="button"
            variant="light"
            loading={busy}
            onClick={() => void submit()}
            data-testid={`${testId}-save`}
          >
            {t('ticketPrinter.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
