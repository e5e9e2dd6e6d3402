import {
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VideoService } from '../../../shared/contracts/api/videos';
import { VideosApi } from '../../../shared/contracts/http/videos';
import { resolveLocaleText } from '../../../shared/domain/locale-text';
import { parsePriceInput } from '../../../shared/domain/money';
import { ApiError } from '../../lib/api-client';
import { formatMoney } from '../../lib/money';
import { useApiClient } from '../../lib/app-context';
import { errorCodeLabel } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useEditorForm } from '../../ui/use-editor-form';
import { useStructuredSubmit } from '../../ui/use-structured-submit';
import { useBackoffice } from '../backoffice.api';
import { ListEmpty, ListLoadError, ListLoading } from '../list-frame';
import { VideoStatusBadge } from './VideosScreen';
import { useInvalidateVideos, useStudio, useVideoServiceInit, useVideoServices } from './videos.api';

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);

/** Video courses (video services) with their lessons (video events) and the watch metrics. */
export function CoursesPanel() {
  const { t, i18n } = useTranslation('videos');
  const { member } = useBackoffice();
  const canEdit = member.abilities.includes('settings.edit');
  const services = useVideoServices();
  const [editing, setEditing] = useState<VideoService | 'new' | null>(null);
  if (services.isError)
    return (
      <ListLoadError
        error={services.error}
        title={t('loadError')}
        retry={t('retry')}
        testId="video-courses-error"
        onRetry={() => void services.refetch()}
      />
    );
  if (!services.data) return <ListLoading />;
  const name = (text: Record<string, { value: string } | undefined>) =>
    resolveLocaleText(text, i18n.language, 'pl');
  return (
    <Stack gap="md">
      {canEdit && !editing && (
        <Group>
          <Button onClick={() => setEditing('new')} data-testid="video-course-add">
            {t('courses.add')}
          </Button>
        </Group>
      )}
      {editing && <CourseForm course={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      {services.data.items.length === 0 && (
        <ListEmpty text={t('courses.empty')} testId="video-courses-empty" />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {services.data.items.map((s) => (
          <Card key={s.id} withBorder radius="md" data-testid="video-course-card">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={0}>
                <Text fw={600}>{name(s.name)}</Text>
                <Text size="xs" c="dimmed">
                  /{s.slug} · {s.published ? t('courses.published') : t('courses.hidden')}
                  {s.price !== null &&
                    ` · ${t('courses.priceShown', { price: formatMoney(s.price, 'PLN') })}`}
                </Text>
              </Stack>
              {canEdit && (
                <Button size="xs" variant="light" onClick={() => setEditing(s)}>
                  {t('courses.edit')}
                </Button>
              )}
            </Group>
            <Table.ScrollContainer minWidth={420} mt="sm">
              <Table fz="sm" data-testid="video-course-lessons">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('courses.lesson')}</Table.Th>
                    <Table.Th>{t('courses.clients')}</Table.Th>
                    <Table.Th>{t('courses.progress')}</Table.Th>
                    <Table.Th>{t('courses.completed')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.events.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td>
                        <Stack gap={2} align="flex-start">
                          <Text size="sm">{name(e.name)}</Text>
                          {e.videoStatus !== 'available' && <VideoStatusBadge status={e.videoStatus} />}
                        </Stack>
                      </Table.Td>
                      <Table.Td>{e.stats.clients}</Table.Td>
                      <Table.Td>{Math.round(e.stats.averageProgress * 100)}%</Table.Td>
                      <Table.Td>{e.stats.completed}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function CourseForm({ course, onDone }: { course: VideoService | null; onDone(): void }) {
  const { t } = useTranslation('videos');
  const api = useApiClient();
  const studio = useStudio();
  const init = useVideoServiceInit();
  const invalidate = useInvalidateVideos();
  const form = useEditorForm(() => ({
    pl: course?.name.pl?.value ?? '',
    en: course?.name.en?.value ?? '',
    descriptionPl: course?.description.pl?.value ?? '',
    descriptionEn: course?.description.en?.value ?? '',
    slug: course?.slug ?? '',
    published: course?.published ?? true,
    price: course?.price == null ? '' : (course.price / 100).toFixed(2).replace(/\.00$/, ''),
    videoIds: course?.events.map((e) => e.videoId) ?? ([] as string[]),
  }));
  const submit = useStructuredSubmit([
    'name',
    'name.pl.value',
    'name.en.value',
    'slug',
    'events',
    'description',
    'price',
  ]);
  const v = form.values;
  const titles = new Map((init.data?.videos ?? []).map((x) => [x.id, x.title]));
  const save = async () => {
    const price = v.price.trim() === '' ? null : parsePriceInput(v.price);
    const lessonNames = new Map(course?.events.map((e) => [e.videoId, e.name]) ?? []);
    const body = {
      name: { pl: { value: v.pl }, en: { value: v.en } },
      description: { pl: { value: v.descriptionPl }, en: { value: v.descriptionEn } },
      slug: v.slug || slugOf(v.pl || v.en),
      published: v.published,
      price,
      events: v.videoIds.map((videoId) => ({
        videoId,
        name: (lessonNames.get(videoId) as
          { pl?: { value: string }; en?: { value: string } } | undefined) ?? {
          pl: { value: titles.get(videoId) ?? '' },
          en: { value: titles.get(videoId) ?? '' },
        },
      })),
    };
    const done = await submit.run(async () => {
      if (price === null && v.price.trim() !== '') {
        const message = t('courses.priceInvalid');
        throw new ApiError(400, {
          error: { code: 1000, key: 'request.invalid', message, fields: { price: [message] } },
        });
      }
      return course
        ? api.call(VideosApi.patchService, { params: { uuid: studio, videoService: course.id }, body })
        : api.call(VideosApi.createService, { params: { uuid: studio }, body });
    });
    if (done) {
      await invalidate();
      onDone();
    }
  };
  const err = submit.fieldErrors;
  return (
    <Paper withBorder p="md" radius="md" data-testid="video-course-form">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <Stack gap="sm">
          <Title order={3} size="h4">
            {course ? t('courses.editTitle') : t('courses.addTitle')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('courses.namePl')}
              value={v.pl}
              onChange={(e) => form.set('pl', e.currentTarget.value)}
              error={err['name.pl.value'] ?? err.name}
              data-testid="video-course-name-pl"
            />
            <TextInput
              label={t('courses.nameEn')}
              value={v.en}
              onChange={(e) => form.set('en', e.currentTarget.value)}
              error={err['name.en.value']}
            />
            <Textarea
              label={t('courses.descriptionPl')}
              value={v.descriptionPl}
              onChange={(e) => form.set('descriptionPl', e.currentTarget.value)}
              autosize
              minRows={2}
            />
            <Textarea
              label={t('courses.descriptionEn')}
              value={v.descriptionEn}
              onChange={(e) => form.set('descriptionEn', e.currentTarget.value)}
              autosize
              minRows={2}
            />
          </SimpleGrid>
          <TextInput
            label={t('courses.slug')}
            description={t('courses.slugHelp')}
            placeholder={slugOf(v.pl || v.en)}
            value={v.slug}
            onChange={(e) => form.set('slug', e.currentTarget.value)}
            error={err.slug}
          />
          <MultiSelect
            label={t('courses.lessons')}
            description={t('courses.lessonsHelp')}
            data={(init.data?.videos ?? []).map((x) => ({
              value: x.id,
              label: `${x.title} (${t(`status.${x.status}`)})`,
            }))}
            value={v.videoIds}
            onChange={(ids) => form.set('videoIds', ids)}
            error={err.events}
            searchable
            data-testid="video-course-lessons-select"
          />
          <TextInput
            label={t('courses.price')}
            description={t('courses.priceHelp')}
            inputMode="decimal"
            w={{ base: '100%', sm: 260 }}
            value={v.price}
            onChange={(e) => form.set('price', e.currentTarget.value)}
            error={err.price}
            data-testid="video-course-price"
          />
          <Checkbox
            label={t('courses.publishedLabel')}
            checked={v.published}
            onChange={(e) => form.set('published', e.currentTarget.checked)}
          />
          <FormErrorList errors={submit.formErrors} />
          {course && <DeleteCourse course={course} onDone={onDone} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('upload.cancel')}
            </Button>
            <SubmitButton type="submit" state={submit.state} data-testid="video-course-save">
              {t('courses.save')}
            </SubmitButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Deleting a course (its lessons and their watch metrics), optionally with its videos no other course uses. */
function DeleteCourse({ course, onDone }: { course: VideoService; onDone(): void }) {
  const { t } = useTranslation('videos');
  const api = useApiClient();
  const studio = useStudio();
  const invalidate = useInvalidateVideos();
  const [confirming, setConfirming] = useState(false);
  const [withVideos, setWithVideos] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const remove = async () => {
    setError(null);
    try {
      await api.call(VideosApi.removeService, {
        params: { uuid: studio, videoService: course.id },
        query: { withVideos: withVideos ? 'true' : 'false' },
      });
      await invalidate();
      onDone();
    } catch (e) {
      setConfirming(false);
      setError(
        e instanceof ApiError && e.key === 'video.coursePurchased'
          ? t('courses.deletePurchased')
          : t('deleteFailed', { code: errorCodeLabel(e) }),
      );
    }
  };
  return (
    <Stack gap={6} data-testid="video-course-delete-box">
      {confirming ? (
        <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-red-light)">
          <Stack gap="xs">
            <Text size="sm">{t('courses.deleteWarning')}</Text>
            <Checkbox
              label={t('courses.deleteWithVideos')}
              checked={withVideos}
              onChange={(e) => setWithVideos(e.currentTarget.checked)}
            />
            <Group gap="xs">
              <Button
                size="xs"
                color="red"
                onClick={() => void remove()}
                data-testid="video-course-delete-confirm"
              >
                {t('courses.deleteConfirm')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                {t('upload.cancel')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      ) : (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          w="fit-content"
          onClick={() => setConfirming(true)}
          data-testid="video-course-delete"
        >
          {t('courses.delete')}
        </Button>
      )}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
