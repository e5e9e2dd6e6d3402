import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrPayload } from '../../shared/domain/accounts/identity';
import { decodeQr, type QrFrame } from './qr-decode';

/**
 * A camera frame with a generated QR code in it (no camera): the code's modules drawn `scale` pixels
 * each, a quiet zone, placed off-centre on a grey background, optionally inverted (a phone in dark
 * mode) and with noise, as a kiosk camera would see a phone held up to it.
 */
function frameWithQr(
  text: string,
  options: { scale?: number; invert?: boolean; noise?: number; width?: number; height?: number } = {},
): QrFrame {
  const { scale = 6, invert = false, noise = 0, width = 640, height = 480 } = options;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const size = qr.modules.size;
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2;
  const quiet = 4;
  const left = 120;
  const top = 60;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const mx = Math.floor((x - left) / scale) - quiet;
      const my = Math.floor((y - top) / scale) - quiet;
      const inCode =
        x >= left &&
        y >= top &&
        x < left + (size + 2 * quiet) * scale &&
        y < top + (size + 2 * quiet) * scale;
      let value = 128;
      if (inCode) {
        const dark = mx >= 0 && my >= 0 && mx < size && my < size && qr.modules.get(my, mx) === 1;
        value = dark !== invert ? 20 : 235;
      }
      value = Math.max(0, Math.min(255, value + random() * noise));
      const i = (y * width + x) * 4;
      data[i] = data[i + 1] = data[i + 2] = value;
      data[i + 3] = 255;
    }
  return { data, width, height };
}

describe('decodeQr (jsQR) on generated camera frames', () => {
  const payload = qrPayload('Qr0123456789abcdefXYZ_-');

  it('reads the kiosk QR payload of a client from a frame', () => {
    expect(decodeQr(frameWithQr(payload))).toBe(payload);
  });

  it('reads a code shown light on dark (inverted) and with sensor noise', () => {
    expect(decodeQr(frameWithQr(payload, { invert: true }))).toBe(payload);
    expect(decodeQr(frameWithQr(payload, { noise: 40, scale: 4 }))).toBe(payload);
  });

  it('answers null for a frame without a code', () => {
    const empty: QrFrame = { data: new Uint8ClampedArray(320 * 240 * 4).fill(200), width: 320, height: 240 };
    expect(decodeQr(empty)).toBeNull();
  });
});
