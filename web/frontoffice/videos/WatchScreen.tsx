import { Alert, AspectRatio, Button, Stack, Text, Title } from '@mantine/core';
import Hls from 'hls.js';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { VideosApi } from '../../../shared/contracts/http/videos';
import { resolveLocaleText, type LocaleText } from '../../../shared/domain/locale-text';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';
import { LoadFailed, Loading } from './VideoCoursesScreen';
import { useWatch } from './videos.api';

/** Seconds between watch reports while playing (and one at pause and at the end). */
const REPORT_EVERY = 15;

/**
 * Watching a lesson: the signed master playlist from `video-course/{videoEvent}/watch`, played by
 * hls.js (Safari plays HLS natively), starting where the client left off; progress goes to
 * `client-video/{id}/metric` every 15 s of playing, at pause and at the end.
 */
export function WatchScreen() {
  const { t, i18n } = useTranslation('videos');
  const { slug = '', videoEvent = '' } = useParams();
  const watch = useWatch(videoEvent);
  const api = useApiClient();
  const studio = useStudioUuid();
  const video = useRef<HTMLVideoElement>(null);
  const data = watch.data;

  useEffect(() => {
    const element = video.current;
    if (!element || !data) return;
    let hls: Hls | null = null;
    if (Hls.isSupported()) {
      // No worker: the page's CSP allows no blob: workers (transmuxing a lesson's segments is light).
      hls = new Hls({
        enableWorker: false,
        startPosition: data.positionSeconds > 0 ? data.positionSeconds : -1,
      });
      hls.loadSource(data.playlistUrl);
      hls.attachMedia(element);
    } else if (element.canPlayType('application/vnd.apple.mpegurl')) {
      element.src = data.playlistUrl;
      element.currentTime = data.positionSeconds;
    }
    let played = 0;
    let last = element.currentTime;
    const report = (ended = false) => {
      const watchedSeconds = Math.min(600, played);
      played = 0;
      void api
        .call(VideosApi.metric, {
          params: { uuid: studio, clientVideo: data.clientVideoId },
          body: { positionSeconds: Math.min(86_400, element.currentTime), watchedSeconds, ended },
        })
        .catch(() => undefined);
    };
    const onTime = () => {
      const now = element.currentTime;
      const step = now - last;
      last = now;
      if (step > 0 && step < 2) played += step;
      if (played >= REPORT_EVERY) report();
    };
    const onPause = () => report();
    const onEnded = () => report(true);
    element.addEventListener('timeupdate', onTime);
    element.addEventListener('pause', onPause);
    element.addEventListener('ended', onEnded);
    return () => {
      element.removeEventListener('timeupdate', onTime);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('ended', onEnded);
      if (played > 1) report();
      hls?.destroy();
    };
  }, [data, api, studio]);

  const back = (
    <Button component={Link} to={`/video-courses/${slug}`} variant="subtle" size="xs" w="fit-content">
      ← {t('front.backToCourse')}
    </Button>
  );
  if (watch.error) {
    const key = watch.error instanceof ApiError ? watch.error.key : undefined;
    if (key === 'video.noAccess' || key === 'video.notAvailable')
      return (
        <Stack gap="md">
          {back}
          <Alert color="yellow" data-testid="watch-refused">
            {t(key === 'video.noAccess' ? 'front.needPass' : 'front.preparing')}
          </Alert>
        </Stack>
      );
    return <LoadFailed error={watch.error} retry={() => void watch.refetch()} />;
  }
  if (!data) return <Loading />;
  return (
    <Stack gap="md" maw={960}>
      {back}
      <Title order={1} size="h3">
        {resolveLocaleText(data.lesson.name as LocaleText, i18n.language, 'pl')}
      </Title>
      <AspectRatio ratio={16 / 9} bg="black">
        <video
          ref={video}
          controls
          playsInline
          poster={data.lesson.thumbnailUrl ?? undefined}
          data-testid="video-player"
          style={{ width: '100%', height: '100%' }}
        />
      </AspectRatio>
      <Text size="xs" c="dimmed">
        {t('front.linkNote')}
      </Text>
    </Stack>
  );
}
