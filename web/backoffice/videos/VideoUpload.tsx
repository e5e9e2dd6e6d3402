import {
  Alert,
  Button,
  FileInput,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Upload } from 'tus-js-client';
import { VideosApi } from '../../../shared/contracts/http/videos';
import { toFormErrors } from '../../lib/form-errors';
import { useApiClient } from '../../lib/app-context';
import { useInvalidateVideos, useStudio } from './videos.api';

type State =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number; bytes: number; total: number }
  | { kind: 'paused'; percent: number }
  | { kind: 'done' }
  | { kind: 'error'; message: string };

/**
 * Adds a video: `POST video` (title, file name and size), then the file itself with tus
 * (tus-js-client, 8 MB chunks): progress as it goes, pause and resume, and after a dropped
 * connection it retries and resumes from what the server has (the browser remembers the upload by
 * the file's fingerprint, so choosing the same file again after a reload continues it).
 */
export function VideoUpload({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('videos');
  const api = useApiClient();
  const studio = useStudio();
  const invalidate = useInvalidateVideos();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [state, setState] = useState<State>({ kind: 'idle' });
  const upload = useRef<Upload | null>(null);

  const start = async () => {
    if (!file) {
      setErrors({ file: t('upload.chooseFile') });
      return;
    }
    setErrors({});
    let video;
    try {
      video = await api.call(VideosApi.create, {
        params: { uuid: studio },
        body: {
          title: title.trim() || file.name.replace(/\.[^.]+$/, ''),
          fileName: file.name,
          sizeBytes: file.size,
        },
      });
    } catch (error) {
      setErrors(Object.fromEntries(Object.entries(toFormErrors(error, t)).map(([k, v]) => [k, String(v)])));
      return;
    }
    await invalidate();
    const tus = new Upload(file, {
      endpoint: video.uploadUrl!,
      metadata: { videoId: video.id, filename: file.name, filetype: file.type },
      // The API's headers (session, CSRF) without its JSON content type: tus sets its own.
      headers: Object.fromEntries(
        Object.entries(api.headers()).filter(([name]) => name.toLowerCase() !== 'content-type'),
      ),
      chunkSize: 8 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000, 10000, 20000],
      removeFingerprintOnSuccess: true,
      onProgress: (bytes, total) =>
        setState({ kind: 'uploading', bytes, total, percent: total ? Math.floor((bytes / total) * 100) : 0 }),
      onSuccess: () => {
        setState({ kind: 'done' });
        void invalidate();
      },
      onError: (error) => setState({ kind: 'error', message: String(error.message ?? error).slice(0, 300) }),
    });
    upload.current = tus;
    setState({ kind: 'uploading', bytes: 0, total: file.size, percent: 0 });
    tus.start();
  };

  const pause = () => {
    void upload.current?.abort();
    setState((s) => ({ kind: 'paused', percent: s.kind === 'uploading' ? s.percent : 0 }));
  };
  const resume = () => {
    setState((s) => ({
      kind: 'uploading',
      bytes: 0,
      total: file?.size ?? 0,
      percent: s.kind === 'paused' ? s.percent : 0,
    }));
    upload.current?.start();
  };

  const busy = state.kind === 'uploading' || state.kind === 'paused';
  return (
    <Paper withBorder p="md" radius="md" data-testid="video-upload">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('upload.title')}
        </Title>
        <TextInput
          label={t('upload.videoTitle')}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={errors.title}
          disabled={busy}
          data-testid="video-upload-title"
        />
        <FileInput
          label={t('upload.file')}
          accept="video/*"
          value={file}
          onChange={setFile}
          error={errors.file ?? errors.sizeBytes ?? errors.fileName}
          disabled={busy}
          clearable
          data-testid="video-upload-file"
        />
        {(state.kind === 'uploading' || state.kind === 'paused') && (
          <Stack gap={4}>
            <Progress
              value={state.percent}
              animated={state.kind === 'uploading'}
              data-testid="video-upload-progress"
            />
            <Text size="sm" c="dimmed">
              {state.kind === 'paused'
                ? t('upload.paused', { percent: state.percent })
                : t('upload.progress', { percent: state.percent })}
            </Text>
          </Stack>
        )}
        {state.kind === 'done' && (
          <Alert color="green" data-testid="video-upload-done">
            {t('upload.done')}
          </Alert>
        )}
        {state.kind === 'error' && (
          <Alert color="red" title={t('upload.failed')} data-testid="video-upload-error">
            {state.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {state.kind === 'done' ? t('upload.close') : t('upload.cancel')}
          </Button>
          {state.kind === 'uploading' && (
            <Button variant="light" onClick={pause}>
              {t('upload.pause')}
            </Button>
          )}
          {(state.kind === 'paused' || state.kind === 'error') && (
            <Button onClick={resume} data-testid="video-upload-resume">
              {t('upload.resume')}
            </Button>
          )}
          {state.kind === 'idle' && (
            <Button onClick={() => void start()} data-testid="video-upload-start">
              {t('upload.start')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
