import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type {
  Dac7SellerBody,
  PayrollValuesBody,
  ReportColumn,
  ReportQuery,
} from '../../../shared/contracts/api/reports';
import { fillPath } from '../../../shared/contracts/http/define';
import { ReportsApi } from '../../../shared/contracts/http/reports';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { money } from '../invoices/invoices.api';
import { useStudioDateTime } from '../use-studio-date-time';

/** Management insight (`shared/contracts/http/reports.ts`) and its react-query keys. */
const keys = {
  dashboard: (studio: string, view: string) => ['reports', studio, 'dashboard', view] as const,
  catalog: (studio: string) => ['reports', studio, 'catalog'] as const,
  data: (studio: string, report: string, query: ReportQuery) =>
    ['reports', studio, 'data', report, query] as const,
  payRates: (studio: string) => ['reports', studio, 'pay-rates'] as const,
};

/** `view`: `mine` (the member's own locations, the default), `all`, or one location's id. */
export function useDashboard(view: string) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.dashboard(studio, view),
    queryFn: ({ signal }) =>
      api.call(ReportsApi.dashboard, {
        params: { uuid: studio },
        query: view === 'mine' ? {} : view === 'all' ? { scope: 'all' } : { location: view },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Sets the member's own locations; every dashboard view is asked again. */
export function useSetDashboardLocations() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return async (locations: string[]) => {
    await api.call(ReportsApi.setDashboardLocations, { params: { uuid: studio }, body: { locations } });
    await queryClient.invalidateQueries({ queryKey: ['reports', studio, 'dashboard'] });
  };
}

export function useReportCatalog() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.catalog(studio),
    queryFn: ({ signal }) => api.call(ReportsApi.catalog, { params: { uuid: studio }, signal }),
    staleTime: 60_000,
  });
}

export function useReportData(report: string, query: ReportQuery, enabled: boolean) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.data(studio, report, query),
    queryFn: ({ signal }) => api.call(ReportsApi.data, { params: { uuid: studio, report }, query, signal }),
    enabled,
    retry: false,
    // While another period or filter loads, the same report's rows stay; another report's never do.
    placeholderData: (previous) => (previous?.id === report ? previous : undefined),
  });
}

/** The export's address: a plain link (the session cookie goes with it), streamed to a file. */
export function useExportHref(): (report: string, query: ReportQuery, format: 'csv' | 'xlsx') => string {
  const studio = useBackoffice().studio.uuid;
  return (report, query, format) => {
    const params = new URLSearchParams({ format });
    for (const [key, value] of Object.entries(query))
      if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
    return `/api${fillPath(ReportsApi.export.path, { uuid: studio, report })}?${params}`;
  };
}

export function usePayRates() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: keys.payRates(studio),
    queryFn: ({ signal }) => api.call(ReportsApi.payRates, { params: { uuid: studio }, signal }),
  });
}

export function useSetPayRates() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return async (body: PayrollValuesBody) => {
    const saved = await api.call(ReportsApi.setPayRates, { params: { uuid: studio }, body });
    queryClient.setQueryData(keys.payRates(studio), saved);
    return saved;
  };
}

/** A report cell as the viewer reads it: money and dates in their language, labels translated. */
export function useCellFormat(
  currency: string,
): (column: ReportColumn, value: string | number | null) => string {
  const { t, i18n } = useTranslation();
  const dateTime = useStudioDateTime();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (column, value) => {
    if (value === null) return '—';
    switch (column.kind) {
      case 'money':
        return money(Number(value), currency, i18n.language);
      case 'count':
        return number.format(Number(value));
      case 'percent':
        return `${number.format(Number(value))} %`;
      case 'datetime':
        return dateTime(String(value));
      case 'label':
        return t(String(value));
      default:
        return String(value);
    }
  };
}

/** The studio's data exports, polled every 2 s while one is being made. */
export function useStudioExports(enabled: boolean) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: ['reports', studio, 'studio-exports'] as const,
    queryFn: ({ signal }) => api.call(ReportsApi.studioExports, { params: { uuid: studio }, signal }),
    enabled,
    refetchInterval: (query) =>
      query.state.data?.items.some((e) => e.status === 'queued' || e.status === 'running') ? 2000 : false,
  });
}

export function useRequestStudioExport() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return async () => {
    await api.call(ReportsApi.requestStudioExport, { params: { uuid: studio } });
    await queryClient.invalidateQueries({ queryKey: ['reports', studio, 'studio-exports'] });
  };
}

export function useStudioExportHref(): (id: string) => string {
  const studio = useBackoffice().studio.uuid;
  return (id) => `/api${fillPath(ReportsApi.downloadStudioExport.path, { uuid: studio, export: id })}`;
}

export function useDac7Reports(enabled: boolean) {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  return useQuery({
    queryKey: ['reports', studio, 'dac7'] as const,
    queryFn: ({ signal }) => api.call(ReportsApi.dac7Collection, { params: { uuid: studio }, signal }),
    enabled,
  });
}

/** Sets who the studio is as a DAC7 seller; the answer is the reports again. */
export function useSetDac7Seller() {
  const api = useApiClient();
  const studio = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  return async (body: Dac7SellerBody) => {
    const saved = await api.call(ReportsApi.setDac7Seller, { params: { uuid: studio }, body });
    queryClient.setQueryData(['reports', studio, 'dac7'], saved);
    return saved;
  };
}
