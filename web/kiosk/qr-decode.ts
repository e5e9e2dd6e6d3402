import jsQR from 'jsqr';

/** RGBA pixels of one frame (a canvas's ImageData, or a test image). */
export interface QrFrame {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

/**
 * The text of the QR code in a camera frame, or null. jsQR (pure JavaScript, no WebAssembly or
 * worker: it runs under the desktop's strict CSP as well) tries the normal and the inverted image,
 * so a code shown light-on-dark on a phone in dark mode is read too.
 */
export function decodeQr(frame: QrFrame): string | null {
  const found = jsQR(frame.data, frame.width, frame.height, { inversionAttempts: 'attemptBoth' });
  return found && found.data ? found.data : null;
}
