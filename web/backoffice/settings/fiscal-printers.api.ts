import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  SERIAL_CONNECTION_PREFILL,
  type FiscalPrinter,
  type FiscalPrinterConnection,
  type FiscalPrinterInput,
} from '../../../shared/contracts/api/fiscal-printers';
import { FiscalPrintersApi } from '../../../shared/contracts/http/fiscal-printers';
import type { VatSlotRate } from '../../../shared/domain/receipts';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

/** Fiscal printer calls (spec §7 "fiscal-printer …") and their react-query keys. */
export const fiscalPrinterKeys = {
  all: (studio: string) => ['fiscal-printers', studio] as const,
};

export function useFiscalPrinters() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: fiscalPrinterKeys.all(studio),
    queryFn: ({ signal }) =>
      api.call(FiscalPrintersApi.getFiscalPrinterCollection, { params: { uuid: studio }, signal }),
    // A queued diagnose is answered by the station: look again while one waits.
    refetchInterval: (query) =>
      query.state.data?.items.some((p) => p.diagnosis?.status === 'pending') ? 5000 : false,
  });
}

export function useInvalidateFiscalPrinters(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useBackoffice().studio.uuid;
  return () => queryClient.invalidateQueries({ queryKey: fiscalPrinterKeys.all(studio) });
}

export const fiscalPrinterCalls = {
  create: (api: ApiClient, studio: string, input: FiscalPrinterInput) =>
    api.call(FiscalPrintersApi.postFiscalPrinter, { params: { uuid: studio }, body: input }),
  update: (api: ApiClient, studio: string, id: string, input: Partial<FiscalPrinterInput>) =>
    api.call(FiscalPrintersApi.patchFiscalPrinter, {
      params: { uuid: studio, studioFiscalPrinter: id },
      body: input,
    }),
  remove: (api: ApiClient, studio: string, id: string) =>
    api.call(FiscalPrintersApi.deleteFiscalPrinter, { params: { uuid: studio, studioFiscalPrinter: id } }),
  diagnose: (api: ApiClient, studio: string, id: string) =>
    api.call(FiscalPrintersApi.postFiscalPrinterDiagnose, {
      params: { uuid: studio, studioFiscalPrinter: id },
    }),
};

/** The printer form's values: strings, named by the payload's paths so server errors land on inputs. */
export type PrinterFormValues = {
  name: string;
  stationSlug: string;
  'connection.kind': 'serial' | 'tcp';
  'connection.path': string;
  'connection.baudRate': string;
  'connection.parity': string;
  'connection.dataBits': string;
  'connection.stopBits': string;
  'connection.flowControl': string;
  'connection.host': string;
  'connection.port': string;
};

export function formValuesOf(printer: FiscalPrinter | null): PrinterFormValues {
  const serial = printer?.connection.kind === 'serial' ? printer.connection : SERIAL_CONNECTION_PREFILL;
  const tcp = printer?.connection.kind === 'tcp' ? printer.connection : null;
  return {
    name: printer?.name ?? '',
    stationSlug: printer?.stationSlug ?? '',
    'connection.kind': printer?.connection.kind ?? 'serial',
    'connection.path': serial.path,
    'connection.baudRate': String(serial.baudRate),
    'connection.parity': serial.parity,
    'connection.dataBits': String(serial.dataBits),
    'connection.stopBits': String(serial.stopBits),
    'connection.flowControl': serial.flowControl,
    'connection.host': tcp?.host ?? '',
    'connection.port': tcp ? String(tcp.port) : '6666',
  };
}

const numberOrText = (value: string): number | string => (/^\d+$/.test(value) ? Number(value) : value);

/** The form as the API's input; the server checks every field (and answers with field errors). */
export function inputOf(values: PrinterFormValues): FiscalPrinterInput {
  const connection =
    values['connection.kind'] === 'tcp'
      ? { kind: 'tcp', host: values['connection.host'], port: numberOrText(values['connection.port']) }
      : {
          kind: 'serial',
          path: values['connection.path'],
          baudRate: numberOrText(values['connection.baudRate']),
          parity: values['connection.parity'],
          dataBits: numberOrText(values['connection.dataBits']),
          stopBits: numberOrText(values['connection.stopBits']),
          flowControl: values['connection.flowControl'],
        };
  return {
    name: values.name,
    stationSlug: values.stationSlug,
    connection: connection as FiscalPrinterConnection,
  };
}

/** "/dev/ttyUSB0 · 9600 8N1" or "10.0.0.5:6666". */
export function describeConnection(connection: FiscalPrinterConnection): string {
  if (connection.kind === 'tcp') return `${connection.host}:${connection.port}`;
  const parity = { none: 'N', even: 'E', odd: 'O', mark: 'M', space: 'S' }[connection.parity];
  const flow = connection.flowControl === 'none' ? '' : ` ${connection.flowControl.toUpperCase()}`;
  return `${connection.path} · ${connection.baudRate} ${connection.dataBits}${parity}${connection.stopBits}${flow}`;
}

/** 2300 → "23%", 550 → "5.5%" (in the language's decimal style), exempt and inactive by label. */
export function vatLabel(t: TFunction, rate: VatSlotRate, locale: string): string {
  if (rate === 'exempt') return t('settings:fiscalPrinters.vat.exempt');
  if (rate === 'inactive') return t('settings:fiscalPrinters.vat.inactive');
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(rate / 10000);
}
