import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CenteredMessage } from '../../ui/CenteredMessage';

export function NotFoundScreen() {
  const { t } = useTranslation('frontoffice');
  return (
    <CenteredMessage
      title={t('notFound.pageTitle')}
      testId="frontoffice-not-found"
      actions={
        <Button component={Link} to="/" variant="light" w="fit-content">
          {t('notFound.home')}
        </Button>
      }
    >
      {t('notFound.pageText')}
    </CenteredMessage>
  );
}
