import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ModuleInProgress } from '../../ui/ModuleInProgress';
import type { SectionId } from '../sections';

export function SectionPlaceholder({ section }: { section: SectionId }) {
  const { t } = useTranslation('backoffice');
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t(`nav.${section}`)}
      </Title>
      <ModuleInProgress
        testId={`section-${section}`}
        title={t('placeholder.title', { section: t(`nav.${section}`) })}
        description={t('placeholder.text')}
      />
    </Stack>
  );
}
