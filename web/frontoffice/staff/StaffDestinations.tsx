import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { LoginDestination } from './login-destinations';

const WRAP = { label: { whiteSpace: 'normal' as const, textAlign: 'center' as const } };

/** The chooser after a sign-in by someone who is staff somewhere and has more than one place to go. */
export function StaffDestinations({ destinations }: { destinations: LoginDestination[] }) {
  const { t } = useTranslation('studio-admin');
  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" maw={480} mx="auto" data-testid="login-destinations">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3">
            {t('signIn.chooseTitle')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('signIn.chooseText')}
          </Text>
        </div>
        {destinations.map((d) =>
          d.kind === 'backoffice' ? (
            <Button
              key={`bo-${d.studioUuid}`}
              component="a"
              href={d.href}
              variant="filled"
              fullWidth
              h="auto"
              py="xs"
              styles={WRAP}
              data-testid="destination-backoffice"
            >
              {t('signIn.backoffice', { studio: d.studioName })}
            </Button>
          ) : (
            <Button
              key="client"
              component={Link}
              to="/"
              variant="default"
              fullWidth
              h="auto"
              py="xs"
              styles={WRAP}
              data-testid="destination-client"
            >
              {t('signIn.clientZone', { studio: d.studioName })}
            </Button>
          ),
        )}
      </Stack>
    </Paper>
  );
}

/** "My account" for someone signed in who is staff here but no client: say so and lead on. */
export function StaffOnlyNotice({
  studioName,
  backofficeHref,
}: {
  studioName: string;
  backofficeHref: string | null;
}) {
  const { t } = useTranslation('studio-admin');
  return (
    <Paper withBorder p="xl" radius="md" maw={520} mx="auto" data-testid="account-staff-only">
      <Stack gap="md">
        <Title order={2} size="h3">
          {t('signIn.staffOnlyTitle')}
        </Title>
        <Text>{t('signIn.staffOnlyText', { studio: studioName })}</Text>
        {backofficeHref ? (
          <Button component="a" href={backofficeHref} w="fit-content" data-testid="go-to-backoffice">
            {t('signIn.goToBackoffice')}
          </Button>
        ) : null}
      </Stack>
    </Paper>
  );
}
