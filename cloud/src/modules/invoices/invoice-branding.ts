import { loadSharp } from '../../libraries';
import type { FileStorage } from '../../storage/index';
import type { Studio } from '../identity/index';

/** The studio's look on its invoices (issue 25): its logo above the title and a band of its colour. */
export interface InvoiceBranding {
  /** The logo as PNG (PDFKit embeds PNG and JPEG, the stored logo is WebP), at most 300 px wide. */
  logoPng: Buffer | null;
  primaryColor: string | null;
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const FILE = /^[A-Za-z0-9_-]{1,80}\.webp$/;

/**
 * Reads the look Settings → Appearance saved in `studios.appearance`. The key is the one studio-admin
 * stores the logo under (`studio-appearance/<studio>/logo/<file>`); it is spelled here rather than
 * imported because studio-admin depends (through client-records) on this module. A logo that cannot
 * be read leaves the invoice plain rather than failing it.
 */
export async function invoiceBranding(storage: FileStorage, studio: Studio): Promise<InvoiceBranding> {
  const appearance = (studio.appearance ?? {}) as { logoFile?: unknown; primaryColor?: unknown };
  const primaryColor =
    typeof appearance.primaryColor === 'string' && HEX.test(appearance.primaryColor)
      ? appearance.primaryColor
      : null;
  let logoPng: Buffer | null = null;
  if (typeof appearance.logoFile === 'string' && FILE.test(appearance.logoFile)) {
    const webp = await storage
      .read(`studio-appearance/${studio.id}/logo/${appearance.logoFile}`)
      .catch(() => null);
    if (webp)
      logoPng = await (
        await loadSharp()
      )(webp)
        .resize(300, 120, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer()
        .catch(() => null);
  }
  return { logoPng, primaryColor };
}
