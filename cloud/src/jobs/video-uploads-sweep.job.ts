import { sweepAbandonedUploads } from '../modules/videos/index';
import type { JobDefinition } from './runner';

export const VIDEO_UPLOADS_SWEEP = 'video-uploads-sweep';

/**
 * Video uploads abandoned for a day (no PATCH for 24 h): the video waits for its file again and the
 * partial upload is deleted (a `video.delete-files` job). Hourly (modules/videos/README.md).
 */
export const videoUploadsSweepJob: JobDefinition = {
  name: VIDEO_UPLOADS_SWEEP,
  cron: '17 * * * *',
  runOnStart: false,
  run: ({ knex, clock }) => sweepAbandonedUploads(knex, clock.now()),
};
