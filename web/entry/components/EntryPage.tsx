import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppFrame, type AppFrameProps } from '../../ui/AppFrame';
import { useDocumentTitle } from '../../ui/use-document-title';

/**
 * Frame of every entry screen: the kit's AppFrame (header with the language switch, the footer with
 * the current year) and the tab title in the current language.
 */
export function EntryPage({
  pageTitle,
  size = 'sm',
  children,
}: {
  pageTitle: string;
  size?: AppFrameProps['size'];
  children: ReactNode;
}) {
  const { t } = useTranslation('entry');
  useDocumentTitle(`${pageTitle} · ${t('title')}`);
  return (
    <AppFrame title={t('title')} size={size}>
      {children}
    </AppFrame>
  );
}

/** The centred card most entry screens are: a heading, a line under it, the content. */
export function EntryCard({
  title,
  subtitle,
  children,
  testId,
  maw = 460,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  children?: ReactNode;
  testId?: string;
  maw?: number;
}) {
  return (
    <Paper
      withBorder
      shadow="sm"
      radius="md"
      p={{ base: 'lg', sm: 'xl' }}
      maw={maw}
      mx="auto"
      data-testid={testId}
    >
      <Stack gap="lg">
        <div>
          <Title order={2} size="h3">
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm" mt={6}>
              {subtitle}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
