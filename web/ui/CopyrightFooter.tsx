import { Text, type TextProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Every screen ends with a copyright note with the current year (spec §2). */
export function CopyrightFooter(props: TextProps) {
  const { t } = useTranslation('common');
  return (
    <Text
      component="footer"
      size="xs"
      c="dimmed"
      ta="center"
      py="md"
      data-testid="copyright-footer"
      {...props}
    >
      {t('footer.copyright', { year: new Date().getFullYear() })}
    </Text>
  );
}
