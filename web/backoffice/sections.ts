/**
 * The back-office navigation. Only the dashboard has content today; every other section shows an
 * honest "arrives with its module" state until its module lands in web/features/<module>.
 */
export const SECTIONS = [
  { id: 'dashboard', path: '/' },
  { id: 'schedule', path: '/schedule' },
  { id: 'courses', path: '/courses', labelKey: 'courses-ui:nav', ability: 'schedule.view' },
  { id: 'appointments', path: '/appointments', labelKey: 'appointments:nav', ability: 'schedule.view' },
  { id: 'places', path: '/places', labelKey: 'places:nav.section', ability: 'schedule.view' },
  { id: 'entries', path: '/entries', labelKey: 'entries:nav', ability: 'schedule.view' },
  { id: 'videos', path: '/videos', labelKey: 'videos:nav', ability: 'settings.view' },
  { id: 'clients', path: '/clients', ability: 'clients.view' },
  // What clients wrote to the studio from the front office (issue 25).
  { id: 'inbox', path: '/inbox', labelKey: 'studio-admin:inbox.nav', ability: 'clients.view' },
  { id: 'sales', path: '/sales', ability: 'reports.view' },
  { id: 'pos', path: '/pos', labelKey: 'retail:nav', ability: 'sales.sell' },
  { id: 'orders', path: '/orders', labelKey: 'orders:nav', ability: 'sales.view' },
  { id: 'products', path: '/products', labelKey: 'products:nav', ability: 'sales.view' },
  { id: 'catalog', path: '/catalog', labelKey: 'catalog:nav', ability: 'sales.view' },
  { id: 'invoices', path: '/invoices', labelKey: 'invoices:nav', ability: 'sales.view' },
  { id: 'accounting', path: '/accounting', labelKey: 'accounting:nav', ability: 'reports.export' },
  { id: 'contracts', path: '/contracts', labelKey: 'contracts:nav', ability: 'sales.view' },
  { id: 'campaigns', path: '/campaigns', labelKey: 'communication:nav', ability: 'campaigns.view' },
  { id: 'reports', path: '/reports', ability: 'reports.view' },
  // Shown to members whose role holds `ability`; its label lives under the module's own key.
  { id: 'staff', path: '/staff', labelKey: 'staff.nav', ability: 'staff.view' },
  // What front-desk stations left for a person after syncing (flags, commands not applied).
  { id: 'sync', path: '/sync', labelKey: 'sync:nav', ability: 'clients.edit' },
  // Every desk and kiosk: version, sync, printers, errors; the studio's update channel (issue 29).
  { id: 'stations', path: '/stations', labelKey: 'desk-fleet:nav', ability: 'settings.view' },
  { id: 'kiosks', path: '/kiosks', labelKey: 'kiosk:nav', ability: 'settings.view' },
  { id: 'integrations', path: '/integrations', labelKey: 'integrations:nav', ability: 'settings.view' },
  { id: 'settings', path: '/settings' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];
