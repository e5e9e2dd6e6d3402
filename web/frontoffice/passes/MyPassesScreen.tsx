import { Alert, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { useApiClient, useSession } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { PassCard } from '../../features/passes/PassCard';
import { useStudioUuid } from '../studio';
import { CatalogScreensApi } from '../../../shared/contracts/http/catalog-screens';
import { SignInFirst } from '../cart/SignInFirst';

const PASSES_SLUG = 'passes';

/**
 * "My passes" (front office `POST passes`): the signed-in client's passes, current ones first, and
 * the passes linked accounts shared with them. Visitors are offered the sign-in, which comes back.
 */
export function MyPassesScreen() {
  const { t } = useTranslation('catalog');
  const session = useSession();
  const signedIn = Boolean(session.userId && session.sessionId);
  if (!signedIn) {
    return (
      <SignInFirst
        back={PASSES_SLUG}
        text={t('front.signInForPasses')}
        signIn={t('front.signIn')}
        testId="passes-signed-out"
        signInTestId="passes-sign-in"
        more={
          <Button component={Link} to="/pricing/pricing-options" variant="default">
            {t('front.seePrices')}
          </Button>
        }
      />
    );
  }
  return <MyPasses />;
}

function MyPasses() {
  const { t, i18n } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudioUuid();
  const passes = useQuery({
    queryKey: ['my-passes', studio],
    queryFn: ({ signal }) => api.call(CatalogScreensApi.postPasses, { params: { uuid: studio }, signal }),
  });
  const name = (text: Record<string, { value: string }>) =>
    resolveLocaleText(text as LocaleText, i18n.language, null);
  if (passes.error)
    return (
      <Alert color="red" variant="light" title={t('loadError')}>
        <Group justify="space-between">
          <Text size="sm">{errorCodeLabel(passes.error)}</Text>
          <Button size="xs" variant="default" onClick={() => void passes.refetch()}>
            {t('retry')}
          </Button>
        </Group>
      </Alert>
    );
  if (passes.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const current = passes.data.own.filter((p) => p.status !== 0);
  const past = passes.data.own.filter((p) => p.status === 0);
  const shared = passes.data.sharedWithMe;
  return (
    <Stack gap="lg" data-testid="my-passes">
      <Title order={2}>{t('front.myPasses')}</Title>
      {current.length === 0 ? (
        <Paper withBorder p="lg" radius="md">
          <Stack gap="sm" align="flex-start">
            <Text c="dimmed">{t('front.noCurrentPasses')}</Text>
            <Button component={Link} to="/pricing/pricing-options" variant="default">
              {t('front.seePrices')}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {current.map((p) => (
            <PassCard key={p.id} pass={p} name={name(p.name)} />
          ))}
        </SimpleGrid>
      )}
      {shared.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('front.sharedWithMe')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="passes-shared">
            {shared.map((p) => (
              <PassCard
                key={p.id}
                pass={p}
                name={name(p.name)}
                extra={
                  <Text size="xs" c="dimmed">
                    {t('front.sharedBy', { name: `${p.owner.firstName} ${p.owner.lastName}`.trim() })}
                  </Text>
                }
              />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
      {past.length > 0 ? (
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('front.pastPasses')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {past.map((p) => (
              <PassCard key={p.id} pass={p} name={name(p.name)} />
            ))}
          </SimpleGrid>
        </Stack>
      ) : null}
    </Stack>
  );
}
