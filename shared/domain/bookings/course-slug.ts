/**
 * A course's address in links (`course/{slug}`, issue 25): its name in words a URL keeps, then the
 * last 10 hex digits of its schedule meta's id, so two runs of one course (and renamed courses) stay
 * apart and the slug finds its course by the id part alone: "Joga dla początkujących" →
 * "joga-dla-poczatkujacych-7f3a09c2d1".
 */
export const COURSE_SLUG_ID_DIGITS = 10;

export function courseSlug(name: string, metaId: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const id = metaId.replace(/-/g, '').toLowerCase().slice(-COURSE_SLUG_ID_DIGITS);
  return words ? `${words}-${id}` : id;
}

/** The id digits a slug ends with, or null when it does not end with them. */
export function courseSlugId(slug: string): string | null {
  const match = new RegExp(`(?:^|-)([0-9a-f]{${COURSE_SLUG_ID_DIGITS}})$`).exec(slug.toLowerCase());
  return match ? match[1]! : null;
}
