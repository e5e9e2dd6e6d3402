import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { FileStorage } from '../../storage/index';

const run = promisify(execFile);

/** Where a video's files live in the storage (keys made here only, never from input). */
export const videoKeys = (studioId: string, videoId: string) => {
  const base = `videos/${studioId}/${videoId}`;
  return {
    /** Everything of the video: deleted as one folder. */
    root: base,
    original: `${base}/original`,
    thumbnail: `${base}/thumbnail.jpg`,
    master: `${base}/hls/master.m3u8`,
    playlist: (rendition: string) => `${base}/hls/${rendition}/index.m3u8`,
    segment: (rendition: string, segment: string) => `${base}/hls/${rendition}/${segment}`,
  };
};

export interface Rendition {
  name: string;
  width: number;
  height: number;
  bandwidth: number;
}

/** The HLS ladder: at most three heights at or below the source's; a tiny source keeps its own. */
const LADDER = [1080, 720, 480, 360, 240, 144] as const;
const VIDEO_KBPS: Record<number, number> = { 1080: 5000, 720: 2800, 480: 1400, 360: 800, 240: 400, 144: 200 };

export function renditionLadder(
  width: number,
  height: number,
): Array<{ height: number; width: number; kbps: number }> {
  const even = (n: number) => Math.max(2, Math.floor(n / 2) * 2);
  const heights = LADDER.filter((h) => h <= height).slice(0, 3);
  const chosen = heights.length > 0 ? heights : [even(height)];
  return chosen.map((h) => ({
    height: h,
    width: even((width * h) / height),
    kbps: VIDEO_KBPS[h] ?? 150,
  }));
}

export function masterPlaylist(renditions: readonly Rendition[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3'];
  for (const r of renditions)
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${r.bandwidth},RESOLUTION=${r.width}x${r.height}`,
      `${r.name}/index.m3u8`,
    );
  return `${lines.join('\n')}\n`;
}

/** A failure of the file itself (not a passing outage): recorded as the video's failure, not retried. */
export class TranscodeFailure extends Error {}

interface Probe {
  width: number;
  height: number;
  durationSeconds: number;
  hasAudio: boolean;
}

async function probe(file: string): Promise<Probe> {
  let out: string;
  try {
    ({ stdout: out } = await run(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file],
      {
        maxBuffer: 4 * 1024 * 1024,
      },
    ));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new TranscodeFailure('ffmpeg is not installed on the server');
    throw new TranscodeFailure('the file is not a video ffmpeg can read');
  }
  const parsed = JSON.parse(out) as {
    streams?: Array<{ codec_type?: string; width?: number; height?: number }>;
    format?: { duration?: string };
  };
  const video = parsed.streams?.find((s) => s.codec_type === 'video' && s.width && s.height);
  if (!video) throw new TranscodeFailure('the file has no video stream');
  const duration = Number(parsed.format?.duration);
  return {
    width: video.width!,
    height: video.height!,
    durationSeconds: Number.isFinite(duration) ? Math.round(duration * 100) / 100 : 0,
    hasAudio: Boolean(parsed.streams?.some((s) => s.codec_type === 'audio')),
  };
}

async function ffmpeg(args: string[]): Promise<void> {
  try {
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new TranscodeFailure('ffmpeg is not installed on the server');
    const last = (e.stderr ?? '').trim().split('\n').at(-1) ?? '';
    throw new TranscodeFailure(`ffmpeg could not transcode the file${last ? `: ${last.slice(0, 200)}` : ''}`);
  }
}

export interface TranscodeResult {
  renditions: Rendition[];
  durationSeconds: number;
}

/**
 * Transcodes a local video file into HLS renditions (H.264/AAC, 4-second segments, VOD playlists),
 * a master playlist and a JPEG thumbnail, all under `outDir`.
 */
export async function transcodeToHls(input: string, outDir: string): Promise<TranscodeResult> {
  const info = await probe(input);
  const renditions: Rendition[] = [];
  for (const step of renditionLadder(info.width, info.height)) {
    const name = `${step.height}p`;
    const dir = path.join(outDir, name);
    await fs.mkdir(dir, { recursive: true });
    await ffmpeg([
      '-i',
      input,
      '-vf',
      `scale=${step.width}:${step.height}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-profile:v',
      'main',
      '-pix_fmt',
      'yuv420p',
      '-b:v',
      `${step.kbps}k`,
      '-maxrate',
      `${Math.round(step.kbps * 1.2)}k`,
      '-bufsize',
      `${step.kbps * 2}k`,
      // A keyframe every 2 s so every 4-second segment starts on one.
      '-force_key_frames',
      'expr:gte(t,n_forced*2)',
      ...(info.hasAudio ? ['-c:a', 'aac', '-b:a', '96k', '-ac', '2'] : ['-an']),
      '-f',
      'hls',
      '-hls_time',
      '4',
      '-hls_playlist_type',
      'vod',
      '-hls_segment_filename',
      path.join(dir, 'seg_%03d.ts'),
      path.join(dir, 'index.m3u8'),
    ]);
    renditions.push({
      name,
      width: step.width,
      height: step.height,
      bandwidth: (step.kbps + (info.hasAudio ? 96 : 0)) * 1000,
    });
  }
  await fs.writeFile(path.join(outDir, 'master.m3u8'), masterPlaylist(renditions));
  const at = Math.min(1, info.durationSeconds / 2);
  await ffmpeg([
    '-ss',
    String(at),
    '-i',
    input,
    '-frames:v',
    '1',
    '-vf',
    'scale=-2:360',
    path.join(outDir, 'thumbnail.jpg'),
  ]);
  return { renditions, durationSeconds: info.durationSeconds };
}

/**
 * The whole job's outside work: the original from the storage to a temporary folder, the transcode,
 * every file back to the storage. Throws TranscodeFailure for a file that cannot be transcoded.
 */
export async function transcodeStoredVideo(
  storage: FileStorage,
  studioId: string,
  videoId: string,
): Promise<TranscodeResult> {
  const keys = videoKeys(studioId, videoId);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'studio-video-'));
  try {
    const source = await storage.get(keys.original);
    if (!source) throw new TranscodeFailure('the uploaded file is missing');
    const input = path.join(work, 'original');
    await pipeline(source, createWriteStream(input));
    const out = path.join(work, 'hls');
    const result = await transcodeToHls(input, out);
    for (const r of result.renditions) {
      const dir = path.join(out, r.name);
      for (const file of await fs.readdir(dir)) {
        const type = file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t';
        await storage.putFile(keys.segment(r.name, file), path.join(dir, file), type);
      }
    }
    await storage.putFile(keys.thumbnail, path.join(out, 'thumbnail.jpg'), 'image/jpeg');
    await storage.putFile(keys.master, path.join(out, 'master.m3u8'), 'application/vnd.apple.mpegurl');
    return result;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
