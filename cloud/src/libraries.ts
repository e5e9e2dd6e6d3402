import type ExcelJS from 'exceljs';
import type mjml2html from 'mjml';
import type PDFDocument from 'pdfkit';
import type QRCode from 'qrcode';
import type sharp from 'sharp';
import type Stripe from 'stripe';

/**
 * The heavy libraries the cloud needs only for some requests, loaded on first use: a server process
 * pays in memory for what it uses (each adds 16–32 MB of resident memory once loaded; the server at
 * rest holds none of them). Import their types statically (`import type`), their code through these.
 * The first call loads (and memoises) the library; a failed load is retried on the next call. The
 * embedded PostgreSQL (PGlite) is loaded the same way by db/embedded.ts, only when the server has no
 * DATABASE_URL.
 */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

/**
 * A CommonJS package whose types declare named exports only (exceljs, qrcode): its `module.exports`,
 * which Node's loader presents as the namespace's `default` (and vitest's may not).
 */
function exportsOf<T>(namespace: T): T {
  const withDefault = namespace as T & { default?: T };
  return withDefault.default ?? namespace;
}

/** exceljs: the XLSX exports (reports, clients, the sales register). */
export const loadExcelJS = onFirstUse(async (): Promise<typeof ExcelJS> =>
  exportsOf(await import('exceljs')),
);

/** mjml: the responsive HTML of campaign, automation and transactional e-mails. */
export const loadMjml = onFirstUse(async (): Promise<typeof mjml2html> => (await import('mjml')).default);

/** pdfkit: invoices' and the demo studio's PDFs. */
export const loadPdfKit = onFirstUse(
  async (): Promise<typeof PDFDocument> => (await import('pdfkit')).default,
);

/** sharp: uploaded pictures (logo, cover) and the invoice's logo. */
export const loadSharp = onFirstUse(async (): Promise<typeof sharp> => (await import('sharp')).default);

/** qrcode: the kiosk's and the KSeF invoice's QR codes. */
export const loadQrCode = onFirstUse(async (): Promise<typeof QRCode> => exportsOf(await import('qrcode')));

/** stripe: the studios' and the platform's Stripe payments (only where Stripe keys are saved). */
export const loadStripe = onFirstUse(async (): Promise<typeof Stripe> => (await import('stripe')).default);
