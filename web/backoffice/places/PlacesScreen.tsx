import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LocationsPanel } from './LocationsPanel';
import { ServicesPanel } from './ServicesPanel';

const PAGES = [
  { id: 'locations', path: '/places/locations' },
  { id: 'services', path: '/places/services' },
] as const;

/**
 * Where and what the studio teaches: locations with their rooms, class services with their
 * categories and experience levels. A settings-like section: reading needs `schedule.view`,
 * changing `settings.edit` (experience levels `schedule.edit`).
 */
export function PlacesScreen({ page }: { page: (typeof PAGES)[number]['id'] }) {
  const { t } = useTranslation('places');
  const navigate = useNavigate();
  return (
    <Stack gap="lg" maw={1100} data-testid="places-screen">
      <div>
        <Title order={1} size="h2">
          {t('title')}
        </Title>
        <Text c="dimmed" size="sm">
          {t('intro')}
        </Text>
      </div>
      <Tabs value={page} onChange={(value) => navigate(PAGES.find((p) => p.id === value)?.path ?? '/places')}>
        <Tabs.List>
          {PAGES.map((p) => (
            <Tabs.Tab key={p.id} value={p.id} data-testid={`places-tab-${p.id}`}>
              {t(`nav.${p.id}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {page === 'locations' ? <LocationsPanel /> : <ServicesPanel />}
    </Stack>
  );
}
