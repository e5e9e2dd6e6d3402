import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import QRCode from 'qrcode';
import { readDemo, type DemoDetails } from './support/demo';
import { RESULTS_DIR } from './support/paths';
import { managerApi } from './support/studio-api';

/**
 * A camera that shows a QR code: Chromium's fake capture device playing a Y4M file made here from a
 * generated QR image (no real camera). The code holds a membership card number chosen now, so the
 * file exists before the browser starts; the test gives that card to a client.
 */
const CAMERA_CARD = `CAM-${Date.now().toString(36).slice(-6).toUpperCase()}`;
const CAMERA_FILE = path.join(RESULTS_DIR, `kiosk-camera-${CAMERA_CARD}.y4m`);
function writeQrVideo(file: string, text: string): void {
  const [w, h, scale, quiet] = [640, 480, 8, 4];
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const side = (size + 2 * quiet) * scale;
  const [left, top] = [Math.floor((w - side) / 2), Math.floor((h - side) / 2)];
  const y = Buffer.alloc(w * h, 128);
  for (let row = 0; row < side; row++)
    for (let col = 0; col < side; col++) {
      const [mx, my] = [Math.floor(col / scale) - quiet, Math.floor(row / scale) - quiet];
      const dark = mx >= 0 && my >= 0 && mx < size && my < size && qr.modules.get(my, mx) === 1;
      y[(top + row) * w + left + col] = dark ? 16 : 235;
    }
  const chroma = Buffer.alloc((w / 2) * (h / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma, chroma]);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F10:1 Ip A1:1 C420jpeg\n`), frame, frame, frame]),
  );
}
writeQrVideo(CAMERA_FILE, CAMERA_CARD);

test.use({
  permissions: ['camera'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${CAMERA_FILE}`,
    ],
  },
});

test('kiosk: a QR code shown to the camera finds the client', async ({ page, request }) => {
  const demo = readDemo() as DemoDetails & { kioskKey?: string | null };
  test.skip(!demo.kioskKey, 'demo.json has no kioskKey (restart the e2e server)');
  const call = await managerApi(request, demo);
  const v4 = (p: string) => `/api/v4/${demo.studioUuid}/${p}`;
  const made = await call<{ client: { id: string } }>('POST', v4('client'), {
    firstName: 'Kamila',
    lastName: `Kamerowa${CAMERA_CARD.slice(-4)}`,
  });
  await call('POST', v4(`client/${made.client.id}/client-identity`), { cardNumber: CAMERA_CARD });

  await page.goto('/kiosk');
  await page.locator('input[name="uuid"]').fill(demo.studioUuid);
  await page.locator('input[name="kioskKey"]').fill(demo.kioskKey!);
  await page.getByTestId('kiosk-submit').click();
  await expect(page.getByTestId('kiosk-start')).toBeVisible();
  await page.getByTestId('kiosk-camera-open').click();
  // The fake camera plays the QR code; the kiosk reads it (jsQR) and identifies the client.
  await expect(page.getByTestId('kiosk-hello')).toHaveText('Hello, Kamila!', { timeout: 20_000 });
});
