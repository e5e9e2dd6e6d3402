// Placeholder so the build has the entry app; the entry module's engineer replaces this file.
import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AppFrame } from '../ui/AppFrame';
import { startApp } from '../ui/boot';

function EntryPlaceholder() {
  const { t } = useTranslation('common');
  return (
    <AppFrame title={t('product.name')}>
      <Title order={2}>{t('product.entryHeading')}</Title>
    </AppFrame>
  );
}

startApp('entry', () => <EntryPlaceholder />, { namespace: 'common' });
