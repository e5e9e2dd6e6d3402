import type { ComponentType } from 'react';
import type { ClientDetail, ClientProfile } from '../../../shared/contracts/api/clients';
import type { Ability } from '../../../shared/policies/abilities';
import { NotesTab } from './profile/NotesTab';
import { OverviewTab } from './profile/OverviewTab';
import {
  CustomFieldsProfileTab,
  DocumentsProfileTab,
  DuplicatesProfileTab,
} from '../client-records/profile-tabs';
import { IdentitiesTab } from '../client-identities/IdentitiesTab';
import { PassesTab } from '../client-passes/PassesTab';
import { ContractsTab } from '../client-contracts/ContractsTab';
import { ClientPaymentsTab } from '../orders/ClientPaymentsTab';
import { VisitsTab } from '../client-visits/VisitsTab';
import { ClientEntriesTab } from '../entries/ClientEntriesTab';
import { ClientVideosTab } from '../videos/ClientVideosTab';

/** What every tab of the client profile receives (the profile call is already loaded). */
export interface ClientProfileTabProps {
  /** The client's USER id (the API's `{user}`). */
  clientId: string;
  client: ClientDetail;
  /** `GET client/{user}/profile`: notes, valid passes and the caller's client abilities. */
  profile: ClientProfile;
}

export interface ClientProfileTab {
  /** The tab's URL segment: `#/clients/<id>/<id of the tab>` (the first tab has none). */
  id: string;
  /** i18next key with its namespace, e.g. `clients:profile.tabs.notes`. */
  labelKey: string;
  /** Hidden from members whose role lacks it (the server checks again on every call). */
  ability?: Ability;
  Component: ComponentType<ClientProfileTabProps>;
  /**
   * The desk station answers this tab's calls from its own copy when the cloud is away; other tabs
   * then say "not available offline" (see web/lib/connectivity.tsx).
   */
  offline?: true;
}

/**
 * The tabs of `#/clients/:id`, in display order. Other modules add their tab here with one line
 * (documents, custom fields, identities): the profile screen renders whatever this array holds.
 */
export const CLIENT_PROFILE_TABS: ClientProfileTab[] = [
  { id: 'overview', labelKey: 'clients:profile.tabs.overview', Component: OverviewTab, offline: true },
  { id: 'notes', labelKey: 'clients:profile.tabs.notes', Component: NotesTab },
  { id: 'fields', labelKey: 'client-records:tabs.fields', Component: CustomFieldsProfileTab },
  {
    id: 'documents',
    labelKey: 'client-records:tabs.documents',
    ability: 'clients.documents',
    Component: DocumentsProfileTab,
  },
  { id: 'duplicates', labelKey: 'client-records:tabs.duplicates', Component: DuplicatesProfileTab },
  { id: 'identities', labelKey: 'account:identities.title', Component: IdentitiesTab },
  { id: 'passes', labelKey: 'catalog:passes.tab', Component: PassesTab, offline: true },
  { id: 'contracts', labelKey: 'contracts:client.tab', Component: ContractsTab },
  {
    id: 'payments',
    labelKey: 'orders:clientPayments.tab',
    ability: 'sales.view',
    Component: ClientPaymentsTab,
  },
  {
    id: 'visits',
    labelKey: 'bookings-ui:profileVisits.tab',
    ability: 'schedule.view',
    Component: VisitsTab,
    offline: true,
  },
  { id: 'entries', labelKey: 'entries:client.tab', Component: ClientEntriesTab },
  { id: 'videos', labelKey: 'videos:client.tab', Component: ClientVideosTab },
];
