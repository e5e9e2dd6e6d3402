import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';

/**
 * Tests only: reads a PDF the way a phone reads the printed invoice — renders its first page with
 * poppler's `pdftoppm` and decodes the QR codes on it with jsQR (the page cut in vertical strips, one
 * code per strip). Optionally keeps a PNG of the page (screenshots for review).
 */
const run = promisify(execFile);

/** Asynchronous: the app under test shares the event loop (a blocked loop breaks its keep-alive sockets). */
export async function qrCodesOfPdf(
  pdf: Buffer,
  options: { dpi?: number; pngTo?: string } = {},
): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-qr-'));
  try {
    const file = path.join(dir, 'invoice.pdf');
    writeFileSync(file, pdf);
    const dpi = String(options.dpi ?? 150);
    await run('pdftoppm', ['-r', dpi, '-f', '1', '-l', '1', file, path.join(dir, 'page')]);
    if (options.pngTo) {
      await run('pdftoppm', [
        '-r',
        dpi,
        '-png',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        file,
        path.join(dir, 'shot'),
      ]);
      mkdirSync(path.dirname(options.pngTo), { recursive: true });
      copyFileSync(path.join(dir, 'shot.png'), options.pngTo);
    }
    const { width, height, rgba } = readPpm(readFileSync(path.join(dir, 'page-1.ppm')));
    const found: string[] = [];
    // The codes stand side by side in the KSeF block: strips of a third of the page each.
    const strips = 3;
    for (let s = 0; s < strips; s++) {
      const x0 = Math.floor((width * s) / strips);
      const w = Math.floor(width / strips);
      const strip = new Uint8ClampedArray(w * height * 4);
      for (let y = 0; y < height; y++)
        strip.set(rgba.subarray((y * width + x0) * 4, (y * width + x0 + w) * 4), y * w * 4);
      const code = jsQR(strip, w, height, { inversionAttempts: 'dontInvert' });
      if (code) found.push(code.data);
    }
    // The decoding above held the event loop (seconds on a loaded machine): let the app under test
    // catch up (close its idle keep-alive sockets) before the test's next request reuses one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return found;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readPpm(buf: Buffer): { width: number; height: number; rgba: Uint8ClampedArray } {
  // P6 <w> <h> <max>\n<binary RGB>
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(buf.subarray(0, 50).toString('latin1'));
  if (!header) throw new Error('not a binary PPM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const rgb = buf.subarray(header[0].length);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[i * 4] = rgb[i * 3]!;
    rgba[i * 4 + 1] = rgb[i * 3 + 1]!;
    rgba[i * 4 + 2] = rgb[i * 3 + 2]!;
    rgba[i * 4 + 3] = 255;
  }
  return { width, height, rgba };
}
