import { Stack, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

/** The pages of the Settings area, in order. */
const SETTINGS_PAGES = [
  // Issue 25 (studio administration): labels in its own namespace.
  { id: 'studio', path: '/settings/studio', labelKey: 'studio-admin:nav.studio' },
  { id: 'policies', path: '/settings/policies', labelKey: 'studio-admin:nav.policies' },
  { id: 'appearance', path: '/settings/appearance', labelKey: 'studio-admin:nav.appearance' },
  { id: 'agreements', path: '/settings/agreements', labelKey: 'studio-admin:nav.agreements' },
  { id: 'bankAccounts', path: '/settings/bank-accounts', labelKey: 'studio-admin:nav.bankAccounts' },
  { id: 'documents', path: '/settings/documents', labelKey: 'studio-admin:nav.documents' },
  { id: 'translations', path: '/settings/translations', labelKey: 'translations:nav' },
  { id: 'premiumApps', path: '/settings/premium-apps', labelKey: 'studio-admin:nav.premiumApps' },
  { id: 'fiscalPrinters', path: '/settings/fiscal-printers' },
  { id: 'clientFields', path: '/settings/client-fields' },
  { id: 'stations', path: '/settings/stations' },
  { id: 'paymentProviders', path: '/settings/payment-providers' },
  // Issue 26: when check-in opens and how late a walk-in may join.
  { id: 'checkIn', path: '/settings/check-in', labelKey: 'bookings-ui:checkInSettings.nav' },
  // Issue 25: the studio's subscription to the platform.
  { id: 'subscription', path: '/settings/subscription', labelKey: 'subscription:nav' },
] as const;

export function SettingsLayout({
  page,
  children,
}: {
  page: (typeof SETTINGS_PAGES)[number]['id'];
  children: ReactNode;
}) {
  const { t } = useTranslation('settings');
  const navigate = useNavigate();
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('title')}
      </Title>
      <Tabs
        value={page}
        onChange={(value) => navigate(SETTINGS_PAGES.find((p) => p.id === value)?.path ?? '/settings')}
      >
        <Tabs.List>
          {SETTINGS_PAGES.map((p) => (
            <Tabs.Tab key={p.id} value={p.id} data-testid={`settings-tab-${p.id}`}>
              {'labelKey' in p ? t(p.labelKey) : t(`nav.${p.id}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children}
    </Stack>
  );
}
