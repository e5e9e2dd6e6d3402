import { AccountingApi } from './accounting';
import { ReportsApi } from './reports';
import { AppointmentsApi } from './appointments';
import { BookingsApi } from './bookings';
import { CatalogApi } from './catalog';
import { ClientAccountsApi } from './client-accounts';
import { ClientRecordsApi } from './client-records';
import { ClientsApi } from './clients';
import { CommunicationApi } from './communication';
import { ContractsApi } from './contracts';
import { CourseSignupApi } from './course-signup';
import type { AnyContract } from './define';
import { DeskFleetApi } from './desk-fleet';
import { EnrollmentsApi } from './enrollments';
import { EntryApi } from './entry';
import { EntriesApi } from './entries';
import { VideosApi } from './videos';
import { IdentityApi } from './identity';
import { IntegrationsApi } from './integrations';
import { PublicApi } from './public-api';
import { FiscalPrintersApi } from './fiscal-printers';
import { InvoicesApi } from './invoices';
import { CatalogScreensApi } from './catalog-screens';
import { PaymentCardsApi } from './payment-cards';
import { StationsApi, TicketPrintersApi } from './stations';
import { SyncReviewApi } from './sync-review';
import { RetailApi } from './retail';
import { ProductsApi } from './products';
import { KsefApi } from './ksef';
import { KioskApi } from './kiosk';
import { PlacesApi } from './places';
import { ScheduleApi, ScheduleBulkEventActionApi, ScheduleEventActionApi } from './schedule';
import { SalesApi } from './sales';
import { StaffApi } from './staff';
import { StudioAdminApi } from './studio-admin';
import { SubscriptionApi } from './subscription';
import { TranslationsApi } from './translations';
import { VisitPaymentApi } from './visit-payment';

export * from './define';

/**
 * Every contract entry of the API, by name: the source of the API documentation (an OpenAPI
 * generator walks it: method, path, access, ability, and the zod schemas of params, query, body and
 * response). The cloud's route catalog test checks that each registered route implements one.
 */
export const API_CONTRACTS: ReadonlyMap<string, AnyContract> = new Map(
  [
    ScheduleApi,
    ScheduleBulkEventActionApi,
    ScheduleEventActionApi,
    BookingsApi,
    CatalogApi,
    ClientsApi,
    ClientRecordsApi,
    EnrollmentsApi,
    CourseSignupApi,
    VisitPaymentApi,
    SalesApi,
    IdentityApi,
    EntryApi,
    StaffApi,
    ClientAccountsApi,
    AccountingApi,
    AppointmentsApi,
    CommunicationApi,
    ProductsApi,
    FiscalPrintersApi,
    InvoicesApi,
    CatalogScreensApi,
    PaymentCardsApi,
    StationsApi,
    TicketPrintersApi,
    SyncReviewApi,
    RetailApi,
    KsefApi,
    PlacesApi,
    ContractsApi,
    KioskApi,
    EntriesApi,
    VideosApi,
    ReportsApi,
    DeskFleetApi,
    StudioAdminApi,
    SubscriptionApi,
    TranslationsApi,
    IntegrationsApi,
    PublicApi,
  ]
    .flatMap((group) => Object.values(group) as AnyContract[])
    .map((entry) => [entry.name, entry]),
);
