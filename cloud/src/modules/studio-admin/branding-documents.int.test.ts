import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { studioSessions } from '../../../../tests/support/sessions';
import { ManualClock, useTestApp } from '../../../../tests/support/test-app';
import { TEST_SELLER_SETTINGS } from '../invoices/testing/seller-settings';

/**
 * Issue 25: the studio's look (Settings → Appearance) on what leaves the studio: the invoice PDF
 * carries its logo (and a band of its colour), e-mails a band of its colour and links in it.
 */
const app = useTestApp({ clock: new ManualClock(new Date('2026-11-23T09:00:00Z')) });
const { ownerStudio } = studioSessions(() => app);
const api = (studio: { id: string }, path: string) => `/api/v4/${studio.id}/${path}`;

async function pdfOf(owner: Awaited<ReturnType<typeof ownerStudio>>['owner'], url: string): Promise<string> {
  const res = await fetch(app.url + url, { headers: owner.headers() });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer()).toString('latin1');
}

describe("the studio's look on invoices and e-mails", () => {
  it('an invoice PDF shows the logo once the studio has one; e-mails take its colour', async () => {
    const { studio, owner } = await ownerStudio();
    await owner.request('PUT', api(studio, 'invoice-settings'), TEST_SELLER_SETTINGS);
    const line = { description: 'Warsztaty', quantity: '1', unit: 'usł.', unitPrice: 10000, vatRate: 2300 };
    const buyer = { name: 'Firma', addressLine: 'ul. Źródlana 3', postalCode: '31-100', city: 'Kraków' };
    const invoice = await owner.post(api(studio, 'invoice'), { buyer, lines: [line] });
    expect(invoice.status, invoice.text).toBe(201);
    const pdfUrl = api(studio, `invoice/${invoice.body.id}/pdf`);

    const plain = await pdfOf(owner, pdfUrl);
    expect(plain).not.toContain('/Subtype /Image');
    const plainMail = await owner.post(api(studio, 'marketing-template/preview'), {
      locale: 'en',
      subject: 'News',
      body: 'See https://example.com/news',
    });
    expect(plainMail.body.html).not.toContain('#0b7285');

    const png = await sharp({ create: { width: 400, height: 200, channels: 3, background: '#0b7285' } })
      .png()
      .toBuffer();
    const logo = await owner.post(api(studio, 'studio-appearance/logo'), {
      dataUrl: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(logo.status, logo.text).toBe(200);
    expect((await owner.patch(api(studio, 'settings'), { primaryColor: '#0b7285' })).status).toBe(200);

    const branded = await pdfOf(owner, pdfUrl);
    expect(branded).toContain('/Subtype /Image');
    expect(branded.length).toBeGreaterThan(plain.length);

    const mail = await owner.post(api(studio, 'marketing-template/preview'), {
      locale: 'en',
      subject: 'News',
      body: 'See https://example.com/news',
    });
    expect(mail.status, mail.text).toBe(200);
    expect(mail.body.html).toContain('border-top:6px solid #0b7285');
    expect(mail.body.html).toContain('href="https://example.com/news" style="color:#0b7285"');
    // A mail is read outside the site: the logo's address is absolute (PUBLIC_URL), never a path.
    const logoSrc = /<img[^>]*src="([^"]*studio-appearance\/logo[^"]*)"/.exec(mail.body.html as string)?.[1];
    expect(logoSrc).toMatch(/^https?:\/\/[^/]+\/api\/v4\//);
    expect(mail.body.html).not.toContain('src="/api/');
  });
});
