import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Image,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { VideoCourse } from '../../../shared/contracts/api/videos';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { useSession } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { formatMoney } from '../../lib/money';
import { AddToCartButton } from '../cart/AddToCartButton';
import { SignInFirst } from '../cart/SignInFirst';
import { useVideoCourse, useVideoCourses } from './videos.api';

function useName() {
  const { i18n } = useTranslation();
  return (text: Record<string, { value: string } | undefined>) =>
    resolveLocaleText(text as LocaleText, i18n.language, 'pl');
}

const minutes = (s: number | null) =>
  s === null ? null : `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

function SignedInOnly({ back, children }: { back: string; children: React.ReactNode }) {
  const { t } = useTranslation('videos');
  const session = useSession();
  if (!session.userId || !session.sessionId)
    return (
      <SignInFirst
        back={back}
        text={t('front.signIn')}
        signIn={t('front.signInButton')}
        testId="video-signed-out"
        signInTestId="video-sign-in"
      />
    );
  return <>{children}</>;
}

export function Loading() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}

export function LoadFailed({ error, retry }: { error: unknown; retry(): void }) {
  const { t } = useTranslation('videos');
  return (
    <Alert color="red" variant="light" title={t('loadError')}>
      <Group justify="space-between">
        <Text size="sm">{errorCodeLabel(error)}</Text>
        <Button size="xs" variant="default" onClick={retry}>
          {t('retry')}
        </Button>
      </Group>
    </Alert>
  );
}

/** Front office "Video courses": the studio's published courses, with what the client may watch. */
export function VideoCoursesScreen() {
  return (
    <SignedInOnly back="video-courses">
      <CourseList />
    </SignedInOnly>
  );
}

function AccessBadge({ course }: { course: VideoCourse }) {
  const { t } = useTranslation('videos');
  return course.access.granted ? (
    <Badge color="green" variant="light">
      {t(`front.access.${course.access.via}`)}
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      {course.price === null ? t('front.noAccess') : t('front.forSale')}
    </Badge>
  );
}

function CourseList() {
  const { t } = useTranslation('videos');
  const name = useName();
  const courses = useVideoCourses();
  if (courses.error) return <LoadFailed error={courses.error} retry={() => void courses.refetch()} />;
  if (!courses.data) return <Loading />;
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('front.title')}
      </Title>
      {courses.data.items.length === 0 && <Text c="dimmed">{t('front.empty')}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {courses.data.items.map((c) => (
          <Card
            key={c.id}
            withBorder
            radius="md"
            component={Link}
            to={`/video-courses/${c.slug}`}
            data-testid="video-course"
          >
            {c.thumbnailUrl && (
              <Card.Section>
                <Image src={c.thumbnailUrl} alt="" h={160} fit="cover" />
              </Card.Section>
            )}
            <Stack gap={4} mt="sm" align="flex-start">
              <AccessBadge course={c} />
              <Text fw={600}>{name(c.name)}</Text>
            </Stack>
            <Text size="sm" c="dimmed" lineClamp={2}>
              {name(c.description)}
            </Text>
            <Text size="sm" mt={4}>
              {t('front.lessons', { count: c.lessons.length })}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** One course: its lessons, each to watch when the client has access and the video is ready. */
export function VideoCourseScreen() {
  const { slug = '' } = useParams();
  return (
    <SignedInOnly back={`video-courses/${slug}`}>
      <CourseDetail slug={slug} />
    </SignedInOnly>
  );
}

function CourseDetail({ slug }: { slug: string }) {
  const { t } = useTranslation('videos');
  const name = useName();
  const course = useVideoCourse(slug);
  if (course.error) return <LoadFailed error={course.error} retry={() => void course.refetch()} />;
  if (!course.data) return <Loading />;
  const c = course.data;
  return (
    <Stack gap="md" maw={860}>
      <Button component={Link} to="/video-courses" variant="subtle" size="xs" w="fit-content">
        ← {t('front.allCourses')}
      </Button>
      <Group justify="space-between" align="flex-start">
        <Title order={1} size="h2">
          {name(c.name)}
        </Title>
        <AccessBadge course={c} />
      </Group>
      {name(c.description) && <Text>{name(c.description)}</Text>}
      {!c.access.granted && (
        <Alert color="yellow" data-testid="video-course-no-access">
          <Stack gap={6}>
            <Text size="sm">{c.price === null ? t('front.needPass') : t('front.needPassOrBuy')}</Text>
            <Group gap="sm">
              {c.price !== null && (
                <Group gap="xs" data-testid="video-course-buy">
                  <Text fw={700}>{formatMoney(c.price, c.currency)}</Text>
                  <AddToCartButton item={{ type: 'videoService', id: c.id }} />
                </Group>
              )}
              <Button
                component={Link}
                to="/pricing/pricing-options"
                size="xs"
                variant={c.price === null ? 'filled' : 'default'}
                w="fit-content"
              >
                {t('front.seePasses')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <Stack gap="xs">
        {c.lessons.map((l, i) => (
          <Card key={l.id} withBorder radius="md" p="sm" data-testid="video-lesson">
            <Group justify="space-between" wrap="nowrap">
              <Group wrap="nowrap" gap="sm">
                {l.thumbnailUrl ? (
                  <Image src={l.thumbnailUrl} alt="" w={96} h={54} radius="sm" fit="cover" />
                ) : null}
                <Stack gap={0}>
                  <Text fw={500}>
                    {i + 1}. {name(l.name)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {[
                      minutes(l.durationSeconds),
                      l.progress !== null
                        ? t('front.watched', { percent: Math.round(l.progress * 100) })
                        : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Stack>
              </Group>
              {l.available && c.access.granted ? (
                <Button
                  component={Link}
                  to={`/video-courses/${c.slug}/watch/${l.id}`}
                  size="sm"
                  style={{ flexShrink: 0 }}
                  data-testid="video-lesson-watch"
                >
                  {t('front.watch')}
                </Button>
              ) : (
                <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                  {l.available ? t('front.locked') : t('front.preparing')}
                </Text>
              )}
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
