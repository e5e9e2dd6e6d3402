/** Lifecycle of an uploaded video: only "available" can be watched. */
export const VideoStatus = {
  init: 'init',
  uploading: 'uploading',
  transcoding: 'transcoding',
  available: 'available',
  failed: 'failed',
} as const;
export type VideoStatus = (typeof VideoStatus)[keyof typeof VideoStatus];
