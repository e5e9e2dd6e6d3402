import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  DiagnosisView,
  FiscalPrinter,
  PrinterStatusView,
} from '../../../shared/contracts/api/fiscal-printers';
import { VAT_SLOT_LETTERS } from '../../../shared/domain/receipts';
import type { Ability } from '../../../shared/policies/abilities';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { DeletePrinterDialog, PrinterFormDialog } from './PrinterFormDialog';
import { IntroBar, ListEmpty, QueryBody, usePhone } from '../list-frame';
import { useStudioDateTime } from '../use-studio-date-time';
import { SettingsLayout } from './SettingsLayout';
import {
  describeConnection,
  fiscalPrinterCalls,
  useFiscalPrinters,
  useInvalidateFiscalPrinters,
  vatLabel,
} from './fiscal-printers.api';

function useCan(): (ability: Ability) => boolean {
  const { member } = useBackoffice();
  return (ability) => member.abilities.includes(ability);
}

/** Settings → Fiscal printers: each station's printer, its last status, VAT mapping and diagnose. */
export function FiscalPrintersScreen() {
  const { t } = useTranslation('settings');
  const can = useCan();
  const printers = useFiscalPrinters();
  const phone = usePhone();
  const [editing, setEditing] = useState<FiscalPrinter | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FiscalPrinter | null>(null);

  const body = (
    <QueryBody
      query={printers}
      noPermission={{
        title: t('nav.fiscalPrinters'),
        text: t('fiscalPrinters.noPermission'),
        testId: 'fiscal-printers-no-permission',
      }}
      loadFailed={{ title: t('fiscalPrinters.loadFailed'), testId: 'fiscal-printers-load-failed' }}
    >
      {(data) => (
        <Stack gap="md">
          <IntroBar
            intro={t('fiscalPrinters.intro')}
            action={
              can('settings.edit') ? (
                <Button onClick={() => setEditing('new')} fullWidth={phone} data-testid="fiscal-printer-add">
                  {t('fiscalPrinters.add')}
                </Button>
              ) : null
            }
          />
          {data.items.length === 0 ? (
            <ListEmpty text={t('fiscalPrinters.empty')} testId="fiscal-printers-empty" />
          ) : (
            data.items.map((printer) => (
              <PrinterCard
                key={printer.id}
                printer={printer}
                studioRatesCount={data.studioRates.length}
                canEdit={can('settings.edit')}
                onEdit={() => setEditing(printer)}
                onDelete={() => setDeleting(printer)}
              />
            ))
          )}
        </Stack>
      )}
    </QueryBody>
  );

  return (
    <SettingsLayout page="fiscalPrinters">
      {body}
      <PrinterFormDialog printer={editing} onClose={() => setEditing(null)} />
      <DeletePrinterDialog printer={deleting} onClose={() => setDeleting(null)} />
    </SettingsLayout>
  );
}

function StatusBadge({ status }: { status: PrinterStatusView | null }) {
  const { t } = useTranslation('settings');
  if (!status)
    return (
      <Badge color="gray" variant="light" data-testid="fiscal-printer-status">
        {t('fiscalPrinters.status.notReported')}
      </Badge>
    );
  const [color, label] = !status.online
    ? ['red', t('fiscalPrinters.status.offline')]
    : status.attentionKey
      ? ['orange', t('fiscalPrinters.status.attention')]
      : ['green', t('fiscalPrinters.status.online')];
  return (
    <Badge color={color} variant="light" data-testid="fiscal-printer-status">
      {label}
    </Badge>
  );
}

function Fact({ label, value, warn = false }: { label: string; value: string; warn?: boolean }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} c={warn ? 'red.7' : undefined}>
        {value}
      </Text>
    </div>
  );
}

function PrinterCard({
  printer,
  studioRatesCount,
  canEdit,
  onEdit,
  onDelete,
}: {
  printer: FiscalPrinter;
  studioRatesCount: number;
  canEdit: boolean;
  onEdit(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('settings');
  const dateTime = useStudioDateTime();
  const status = printer.status;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="fiscal-printer" data-station={printer.stationSlug}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
            <Group gap="xs" wrap="wrap">
              <Title
                order={2}
                size="h4"
                style={{ overflowWrap: 'anywhere' }}
                data-testid="fiscal-printer-name"
              >
                {printer.name}
              </Title>
              <StatusBadge status={status} />
            </Group>
            <Text size="sm" c="dimmed">
              {t('fiscalPrinters.station')}: <b style={{ overflowWrap: 'anywhere' }}>{printer.stationSlug}</b>
            </Text>
            <Text size="sm" c="dimmed" data-testid="fiscal-printer-connection">
              {t(printer.connection.kind === 'tcp' ? 'fiscalPrinters.tcp' : 'fiscalPrinters.serial')}:{' '}
              <span style={{ overflowWrap: 'anywhere' }}>{describeConnection(printer.connection)}</span>
            </Text>
          </Stack>
          {canEdit ? (
            <Group gap={4} wrap="nowrap">
              <Button size="compact-sm" variant="subtle" onClick={onEdit} data-testid="fiscal-printer-edit">
                {t('fiscalPrinters.edit')}
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                onClick={onDelete}
                data-testid="fiscal-printer-delete"
              >
                {t('fiscalPrinters.delete')}
              </Button>
            </Group>
          ) : null}
        </Group>

        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('fiscalPrinters.status.title')}
            </Text>
            {status ? (
              <>
                {status.attentionKey ? (
                  <Alert color="orange" variant="light" p="xs" data-testid="fiscal-printer-attention">
                    <Text size="sm">{t(status.attentionKey)}</Text>
                  </Alert>
                ) : null}
                <SimpleGrid cols={2} spacing="xs">
                  <Fact
                    label={t('fiscalPrinters.status.paper')}
                    value={t(
                      status.paperOut ? 'fiscalPrinters.status.paperOut' : 'fiscalPrinters.status.paperOk',
                    )}
                    warn={status.paperOut}
                  />
                  <Fact
                    label={t('fiscalPrinters.status.cover')}
                    value={t(
                      status.coverOpen
                        ? 'fiscalPrinters.status.coverOpen'
                        : 'fiscalPrinters.status.coverClosed',
                    )}
                    warn={status.coverOpen}
                  />
                  <Fact
                    label={t('fiscalPrinters.status.dailyReport')}
                    value={t(
                      status.dailyReportNeeded
                        ? 'fiscalPrinters.status.dailyReportNeeded'
                        : 'fiscalPrinters.status.dailyReportDone',
                    )}
                    warn={status.dailyReportNeeded}
                  />
                  <Fact
                    label={t('fiscalPrinters.status.lastReceipt')}
                    value={status.lastReceiptNumber === null ? '—' : String(status.lastReceiptNumber)}
                  />
                </SimpleGrid>
                <Fact label={t('fiscalPrinters.status.lastSeen')} value={dateTime(status.reportedAt)} />
              </>
            ) : (
              <Text size="sm" c="dimmed">
                {t('fiscalPrinters.status.notReportedHint')}
              </Text>
            )}
          </Stack>

          <VatMapping printer={printer} studioRatesCount={studioRatesCount} />

          <Diagnose printer={printer} canRequest={canEdit} />
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

function VatMapping({ printer, studioRatesCount }: { printer: FiscalPrinter; studioRatesCount: number }) {
  const { t, i18n } = useTranslation('settings');
  const slots =
    printer.vatMapping.source === 'reported'
      ? (printer.status?.vatSlots ?? printer.vatSlots)
      : printer.vatSlots;
  return (
    <Stack gap="xs" data-testid="fiscal-printer-vat">
      <Text fw={600} size="sm">
        {t('fiscalPrinters.vat.title')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('fiscalPrinters.vat.slots')}
      </Text>
      <Table withTableBorder withColumnBorders verticalSpacing={2} horizontalSpacing={4} fz="xs" ta="center">
        <Table.Thead>
          <Table.Tr>
            {VAT_SLOT_LETTERS.map((letter) => (
              <Table.Th key={letter} ta="center">
                {letter}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr>
            {slots.map((rate, i) => (
              <Table.Td key={VAT_SLOT_LETTERS[i]}>{vatLabel(t, rate, i18n.language)}</Table.Td>
            ))}
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed">
        {t('fiscalPrinters.vat.mapping')}
      </Text>
      {studioRatesCount === 0 ? (
        <Text size="sm" c="dimmed">
          {t('fiscalPrinters.vat.noRates')}
        </Text>
      ) : (
        <Stack gap={2}>
          {printer.vatMapping.items.map((item) => (
            <Group key={String(item.rate)} gap="xs" wrap="nowrap" data-testid="fiscal-printer-vat-rate">
              <Text size="sm" fw={500} w={56}>
                {vatLabel(t, item.rate, i18n.language)}
              </Text>
              {item.slot ? (
                <Badge variant="light" size="sm">
                  {item.slot}
                </Badge>
              ) : (
                <Text size="xs" c="red.7">
                  {t('fiscalPrinters.vat.notOnPrinter')}
                </Text>
              )}
            </Group>
          ))}
        </Stack>
      )}
      <Text size="xs" c="dimmed">
        {t(
          printer.vatMapping.source === 'reported'
            ? 'fiscalPrinters.vat.sourceReported'
            : 'fiscalPrinters.vat.sourceConfigured',
        )}
      </Text>
      {printer.vatMapping.differsFromConfigured ? (
        <Text size="xs" c="orange.8">
          {t('fiscalPrinters.vat.differs')}
        </Text>
      ) : null}
    </Stack>
  );
}

function Diagnose({ printer, canRequest }: { printer: FiscalPrinter; canRequest: boolean }) {
  const { t } = useTranslation('settings');
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const invalidate = useInvalidateFiscalPrinters();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const diagnosis = printer.diagnosis;

  const request = async () => {
    setBusy(true);
    setError(null);
    try {
      await fiscalPrinterCalls.diagnose(api, studio, printer.id);
      await invalidate();
    } catch (err) {
      setError(
        err instanceof ApiError && [401, 403, 405].includes(err.status)
          ? t('common:errors.noPermission')
          : t('common:errors.generalWithCode', { code: errorCodeLabel(err) }),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack gap="xs" data-testid="fiscal-printer-diagnose">
      <Text fw={600} size="sm">
        {t('fiscalPrinters.diagnose.title')}
      </Text>
      <DiagnosisState diagnosis={diagnosis} />
      {error ? (
        <Text size="sm" c="red.7">
          {error}
        </Text>
      ) : null}
      {canRequest ? (
        <Group>
          <Button
            variant="default"
            size="sm"
            loading={busy}
            disabled={diagnosis?.status === 'pending'}
            onClick={() => void request()}
            data-testid="fiscal-printer-diagnose-button"
          >
            {t('fiscalPrinters.diagnose.button')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

function DiagnosisState({ diagnosis }: { diagnosis: DiagnosisView | null }) {
  const { t } = useTranslation('settings');
  const dateTime = useStudioDateTime();
  if (!diagnosis)
    return (
      <Text size="sm" c="dimmed" data-testid="fiscal-printer-diagnosis" data-state="none">
        {t('fiscalPrinters.diagnose.none')}
      </Text>
    );
  if (diagnosis.status === 'pending' || !diagnosis.result)
    return (
      <Stack gap={2} data-testid="fiscal-printer-diagnosis" data-state="pending">
        <Group gap="xs" wrap="nowrap">
          <Loader size="xs" />
          <Text size="sm">
            {t('fiscalPrinters.diagnose.pending', { time: dateTime(diagnosis.requestedAt) })}
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('fiscalPrinters.diagnose.pendingHint')}
        </Text>
      </Stack>
    );
  const result = diagnosis.result;
  return (
    <Stack gap={2} data-testid="fiscal-printer-diagnosis" data-state="completed">
      <Group gap="xs">
        <Badge color={result.ok ? 'green' : 'red'} variant="light">
          {t(result.ok ? 'fiscalPrinters.diagnose.ok' : 'fiscalPrinters.diagnose.failed')}
        </Badge>
        <Text size="xs" c="dimmed">
          {t('fiscalPrinters.diagnose.completed', {
            time: dateTime(diagnosis.completedAt ?? diagnosis.requestedAt),
          })}
        </Text>
      </Group>
      {result.messageKey ? <Text size="sm">{t(result.messageKey)}</Text> : null}
      {result.transactionOpen ? <Text size="sm">{t('fiscalPrinters.diagnose.transactionOpen')}</Text> : null}
      {result.counters ? (
        <Text size="xs" c="dimmed">
          {t('fiscalPrinters.diagnose.receipts', result.counters)}
        </Text>
      ) : null}
      {result.transport ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {t('fiscalPrinters.diagnose.transport')}: {result.transport}
        </Text>
      ) : null}
    </Stack>
  );
}
