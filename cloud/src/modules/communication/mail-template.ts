import { loadMjml } from '../../libraries';

/**
 * Responsive HTML e-mail from MJML with a plain-text part, for campaigns and automations. The body
 * is the studio's plain text: paragraphs split on blank lines, links made clickable, `{firstName}`
 * put in per recipient. Rendered once per campaign and language (MJML is the slow part); the
 * recipient's name and unsubscribe link are put in by `personalise` (string replacement).
 */

export interface MailLayout {
  studioName: string;
  logoUrl: string | null;
  locale: 'en' | 'pl';
  subject: string;
  body: string;
  /** An image shown above the text (an uploaded campaign image). */
  imageUrl?: string | null;
  /** A file linked under the text (an uploaded attachment). */
  attachment?: { name: string; url: string } | null;
  /** Marketing: the footer's unsubscribe link (a placeholder until personalised). */
  unsubscribe: boolean;
  /** The studio's main colour (Settings → Appearance): the band above the logo and the links. */
  primaryColor?: string | null;
  /**
   * The server's public address (`PUBLIC_URL`): a mail is read outside the site, so a picture or link
   * stored as a path (the studio's logo, `/api/v4/…`) is made absolute against it.
   */
  baseUrl: string;
}

/** `/api/v4/…` → `https://host/api/v4/…`; an absolute or empty address is kept. */
export function absoluteMailUrl(baseUrl: string, url: string): string {
  if (!url.startsWith('/') || url.startsWith('//')) return url;
  return `${baseUrl.replace(/\/+$/, '')}${url}`;
}

const HEX = /^#[0-9a-fA-F]{6}$/;
const LINK_DEFAULT = '#1c7ed6';

/** The studio's main colour from its appearance, when it set a valid one. */
export function brandColourOf(studio: { appearance: unknown }): string | null {
  const colour = (studio.appearance as { primaryColor?: unknown } | null)?.primaryColor;
  return typeof colour === 'string' && HEX.test(colour) ? colour : null;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

export const FIRST_NAME = '{firstName}';
const UNSUBSCRIBE_URL = '%%UNSUBSCRIBE_URL%%';

const FOOTER = {
  en: {
    unsubscribe: 'Unsubscribe',
    why: 'You receive this because you agreed to news from {studio}.',
    file: 'Attachment',
  },
  pl: {
    unsubscribe: 'Wypisz się',
    why: 'Otrzymujesz tę wiadomość, bo zgodziłeś się na informacje od {studio}.',
    file: 'Załącznik',
  },
} as const;

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const URL_RE = /\bhttps?:\/\/[^\s<>"]+[^\s<>".,;:!?)]/g;

function paragraphHtml(paragraph: string, link: string): string {
  const escaped = escapeHtml(paragraph);
  const linked = escaped.replace(URL_RE, (url) => `<a href="${url}" style="color:${link}">${url}</a>`);
  return linked.replace(/\n/g, '<br />');
}

const paragraphs = (body: string) =>
  body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

export async function renderMail(layout: MailLayout): Promise<RenderedMail> {
  const mjml2html = await loadMjml();
  const t = FOOTER[layout.locale];
  const brand = layout.primaryColor && HEX.test(layout.primaryColor) ? layout.primaryColor : null;
  const link = brand ?? LINK_DEFAULT;
  const why = t.why.replace('{studio}', layout.studioName);
  const abs = (url: string) => absoluteMailUrl(layout.baseUrl, url);
  const header = layout.logoUrl
    ? `<mj-image src="${escapeHtml(abs(layout.logoUrl))}" alt="${escapeHtml(layout.studioName)}" width="120px" />`
    : `<mj-text font-size="20px" font-weight="700" align="center">${escapeHtml(layout.studioName)}</mj-text>`;
  const image = layout.imageUrl ? `<mj-image src="${escapeHtml(abs(layout.imageUrl))}" alt="" />` : '';
  const attachmentUrl = layout.attachment ? abs(layout.attachment.url) : '';
  const file = layout.attachment
    ? `<mj-text><a href="${escapeHtml(attachmentUrl)}" style="color:${link}">${t.file}: ${escapeHtml(layout.attachment.name)}</a></mj-text>`
    : '';
  const text = paragraphs(layout.body)
    .map((p) => `<mj-text font-size="16px" line-height="24px">${paragraphHtml(p, link)}</mj-text>`)
    .join('\n');
  const footer = layout.unsubscribe
    ? `<mj-text font-size="12px" color="#868e96" align="center">${escapeHtml(why)}<br /><a href="${UNSUBSCRIBE_URL}" style="color:#868e96">${t.unsubscribe}</a></mj-text>`
    : `<mj-text font-size="12px" color="#868e96" align="center">${escapeHtml(layout.studioName)}</mj-text>`;
  const source = `<mjml lang="${layout.locale}">
  <mj-head>
    <mj-title>${escapeHtml(layout.subject)}</mj-title>
    <mj-attributes><mj-all font-family="Helvetica, Arial, sans-serif" /></mj-attributes>
  </mj-head>
  <mj-body background-color="#f1f3f5">
    <mj-section background-color="#ffffff" padding="24px 0 8px"${brand ? ` border-top="6px solid ${brand}"` : ''}>
      <mj-column>${header}</mj-column>
    </mj-section>
    <mj-section background-color="#ffffff">
      <mj-column>
        ${image}
        ${text}
        ${file}
      </mj-column>
    </mj-section>
    <mj-section><mj-column>${footer}</mj-column></mj-section>
  </mj-body>
</mjml>`;
  const { html, errors } = mjml2html(source, { validationLevel: 'soft', minify: false });
  if (errors.length > 0 && !html) throw new Error(`MJML: ${errors[0]?.message ?? 'failed'}`);
  const plain = [
    layout.studioName,
    '',
    ...paragraphs(layout.body).flatMap((p) => [p, '']),
    ...(layout.attachment ? [`${t.file}: ${attachmentUrl}`, ''] : []),
    ...(layout.unsubscribe ? ['--', why, `${t.unsubscribe}: ${UNSUBSCRIBE_URL}`] : []),
  ].join('\n');
  return { subject: layout.subject, html, text: plain };
}

/** A rendered mail for one recipient: their first name and unsubscribe link put in. */
export function personalise(
  mail: RenderedMail,
  recipient: { firstName: string; unsubscribeUrl: string | null },
): RenderedMail {
  const name = recipient.firstName;
  const put = (s: string, html: boolean) =>
    s
      .split(FIRST_NAME)
      .join(html ? escapeHtml(name) : name)
      .split(UNSUBSCRIBE_URL)
      .join(recipient.unsubscribeUrl ?? '');
  return { subject: put(mail.subject, false), html: put(mail.html, true), text: put(mail.text, false) };
}
