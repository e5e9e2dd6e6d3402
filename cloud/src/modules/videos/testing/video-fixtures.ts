import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { HttpClient } from '../../../../../tests/support/http-client';

/** A few-second test video made by ffmpeg (colour bars with a tone): small, fast to transcode. */
export function makeTestVideo(seconds = 2, size = '320x240'): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'video-fixture-'));
  const file = path.join(dir, 'bars.mp4');
  try {
    execFileSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `testsrc=size=${size}:rate=15`,
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=22050',
        '-t',
        String(seconds),
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '48k',
        file,
      ],
      { stdio: 'pipe' },
    );
    return fs.readFileSync(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const TUS = { 'tus-resumable': '1.0.0' };

/** tus creation (POST) of a video's upload: the upload's URL (relative). */
export async function tusCreate(
  baseUrl: string,
  client: HttpClient,
  uploadUrl: string,
  videoId: string,
  size: number,
) {
  const res = await fetch(baseUrl + uploadUrl, {
    method: 'POST',
    headers: {
      ...client.headers(),
      ...TUS,
      'upload-length': String(size),
      'upload-metadata': `videoId ${Buffer.from(videoId).toString('base64')}`,
    },
  });
  return { status: res.status, location: res.headers.get('location'), text: await res.text() };
}

export async function tusOffset(baseUrl: string, client: HttpClient, location: string): Promise<number> {
  const res = await fetch(baseUrl + location, { method: 'HEAD', headers: { ...client.headers(), ...TUS } });
  return Number(res.headers.get('upload-offset'));
}

export async function tusPatch(
  baseUrl: string,
  client: HttpClient,
  location: string,
  offset: number,
  bytes: Buffer,
) {
  const res = await fetch(baseUrl + location, {
    method: 'PATCH',
    headers: {
      ...client.headers(),
      ...TUS,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, offset: Number(res.headers.get('upload-offset')), text: await res.text() };
}

/**
 * A PATCH whose connection drops after `sent` bytes of `bytes` (announced in full): what a phone
 * losing its network mid-upload does to the server.
 */
export async function tusPatchInterrupted(
  baseUrl: string,
  client: HttpClient,
  location: string,
  offset: number,
  bytes: Buffer,
  sent: number,
): Promise<void> {
  const url = new URL(baseUrl + location);
  await new Promise<void>((resolve) => {
    const req = http.request(url, {
      method: 'PATCH',
      headers: {
        ...client.headers(),
        ...TUS,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    req.on('error', () => resolve());
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
    req.write(bytes.subarray(0, sent), () => {
      // Let the server take in what was sent, then cut the connection.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
  });
}
