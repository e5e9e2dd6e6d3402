import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { MyPasses as MyPassesView } from '../../../shared/contracts/api/catalog-screens';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { useApiClient, useSession } from '../../lib/app-context';
import { errorCodeLabel, toFormErrors } from '../../lib/form-errors';
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
  const candidates = passes.data.shareCandidates;
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
            <PassCard
              key={p.id}
              pass={p}
              name={name(p.name)}
              extra={
                p.shareable && candidates.length > 0 ? (
                  <ShareControl pass={p} name={name(p.name)} candidates={candidates} />
                ) : undefined
              }
            />
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

type OwnPass = MyPassesView['own'][number];
type Person = MyPassesView['shareCandidates'][number];

/**
 * Who shares the pass, and a "Share" dialog (front office `passes/{clientPricingOption}/share`): one
 * switch per linked account that is a client here; the studio's rules (the option's share limit)
 * answer a refusal, shown under the switch.
 */
function ShareControl({ pass, name, candidates }: { pass: OwnPass; name: string; candidates: Person[] }) {
  const { t } = useTranslation('catalog');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<{ userId: string; text: string } | null>(null);
  const fullName = (p: Person) => `${p.firstName} ${p.lastName}`.trim();
  const toggle = async (person: Person, shared: boolean) => {
    setBusy(person.userId);
    setError(null);
    try {
      await api.call(CatalogScreensApi.postPassShare, {
        params: { uuid: studio, clientPricingOption: pass.id },
        body: { userId: person.userId, shared },
      });
      await queryClient.invalidateQueries({ queryKey: ['my-passes', studio] });
    } catch (err) {
      const errors = toFormErrors(err, t);
      setError({
        userId: person.userId,
        text: [...Object.values(errors.fields), ...errors.form].join(' ') || errorCodeLabel(err),
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap={6}>
      {pass.sharedWith.length > 0 && (
        <Text size="xs" c="dimmed" data-testid="pass-shared-with">
          {t('front.sharedWith', { names: pass.sharedWith.map(fullName).join(', ') })}
        </Text>
      )}
      <Group>
        <Button size="xs" variant="light" onClick={() => setOpen(true)} data-testid="pass-share">
          {t('front.share')}
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('front.shareTitle', { name })} centered>
        <Stack gap="sm" data-testid="pass-share-dialog">
          <Text size="sm" c="dimmed">
            {t('front.shareIntro')}
          </Text>
          {candidates.map((person) => (
            <Stack key={person.userId} gap={2}>
              <Switch
                label={fullName(person)}
                checked={pass.sharedWith.some((s) => s.userId === person.userId)}
                disabled={busy !== null}
                onChange={(event) => void toggle(person, event.currentTarget.checked)}
                data-testid="pass-share-switch"
              />
              {error?.userId === person.userId && (
                <Text size="xs" c="red" role="alert">
                  {error.text}
                </Text>
              )}
            </Stack>
          ))}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('front.shareDone')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
