import { strFromU8, unzipSync } from 'fflate';
import { DOCUMENT_TYPES, type DocumentType } from '../../../../shared/contracts/api/client-records';

/**
 * What a document really is, from its first bytes (the type a browser declares is often
 * `application/octet-stream` for HEIC or DOCX, and can be anything a caller likes). Office formats are
 * ZIP files: for them the file name's extension picks the type, and ODT is confirmed by its leading
 * `mimetype` entry. Anything else is refused: no scripts, no HTML, no SVG.
 */
const ascii = (head: Buffer, from: number, to: number) => head.subarray(from, to).toString('latin1');

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heif']);

export function documentTypeOf(head: Buffer, fileName: string): DocumentType | null {
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (HEIC_BRANDS.has(brand)) return 'image/heic';
    if (HEIF_BRANDS.has(brand)) return 'image/heif';
    return null;
  }
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    const ext = extensionOf(fileName);
    if (ext === 'odt')
      return ascii(head, 30, 38) === 'mimetype' && head.includes('application/vnd.oasis.opendocument.text')
        ? 'application/vnd.oasis.opendocument.text'
        : null;
    if (ext === 'docx') return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    if (ext === 'xlsx') return 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  }
  return null;
}

/**
 * The main part an Office Open XML package must declare in its `[Content_Types].xml` to be what its
 * extension says: a ZIP named `.docx` that is not a Word document (an archive of anything, a
 * spreadsheet renamed) is refused.
 */
const OOXML_MAIN_PARTS: Partial<Record<DocumentType, string>> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
};
/** `[Content_Types].xml` is a short list; a bigger one is not an Office file we accept. */
const CONTENT_TYPES_MAX_BYTES = 256 * 1024;

export const needsPackageCheck = (type: DocumentType) => type in OOXML_MAIN_PARTS;

/** True when the whole file `bytes` is an OOXML package whose main part is of `type`. */
export function ooxmlPackageIs(bytes: Uint8Array, type: DocumentType): boolean {
  const main = OOXML_MAIN_PARTS[type];
  if (!main) return true;
  let entry: Uint8Array | undefined;
  try {
    entry = unzipSync(bytes, {
      filter: (f) => f.name === '[Content_Types].xml' && f.originalSize <= CONTENT_TYPES_MAX_BYTES,
    })['[Content_Types].xml'];
  } catch {
    return false;
  }
  if (!entry) return false;
  const declared = strFromU8(entry).matchAll(/ContentType\s*=\s*["']([^"']*)["']/g);
  return [...declared].some((m) => m[1] === main);
}

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** The names users recognise, for the error message. */
export const ALLOWED_NAMES = [
  ...new Set(Object.values(DOCUMENT_TYPES).map((exts) => exts[0]!.toUpperCase())),
].join(', ');

/**
 * The uploaded name as a label only: path parts, control and bidi-override characters dropped,
 * at most 255 characters, never empty. It is never used to build a path.
 */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069"]/g, '')
    .trim();
  const chars = [...cleaned];
  if (chars.length === 0) return 'document';
  if (chars.length <= 255) return cleaned;
  const ext = extensionOf(cleaned);
  const keep = 255 - (ext ? ext.length + 1 : 0);
  return chars.slice(0, keep).join('') + (ext ? `.${ext}` : '');
}
