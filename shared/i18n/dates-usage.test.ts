import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 26: one date and time format per language. Every date a person reads goes through
 * shared/i18n/dates.ts; this test fails on ad hoc formatting anywhere else in the apps, the desk's
 * renderer, the cloud (mails, PDFs, exports) and shared/.
 *
 * Allowed outside the formatter: `Intl.DateTimeFormat()` with no arguments (the device's zone), and
 * `Intl.DateTimeFormat('en-CA' | 'en-US' | 'sv-SE' | 'en', …)` / `toLocaleString('sv-SE', …)` — fixed,
 * machine-readable locales used to compute a zone's calendar parts (`2026-11-27`), never shown as is.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SCANNED = ['web', 'desktop/renderer', 'desktop/main', 'cloud/src', 'shared'];
const FORMATTER = 'shared/i18n/dates.ts';
const MACHINE_LOCALE = /^\s*(['"])(en-CA|en-US|sv-SE|en)\1/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'generated') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$|\.test-support\.ts$|\.d\.ts$/.test(entry.name))
      out.push(path);
  }
  return out;
}

export function adHocDateFormatting(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const where = `${file}:${i + 1}: ${line.trim()}`;
    if (/\.toLocale(Date|Time)String\(/.test(line)) found.push(where);
    const toLocale = /\.toLocaleString\(([^)]*)/.exec(line);
    if (toLocale && !MACHINE_LOCALE.test(toLocale[1] ?? '')) found.push(where);
    for (const m of line.matchAll(/Intl\.DateTimeFormat\(([^)]*)/g)) {
      const args = m[1] ?? '';
      if (args.trim() === '' && line.slice((m.index ?? 0) + m[0].length).startsWith(')')) continue;
      if (!MACHINE_LOCALE.test(args)) found.push(where);
    }
    if (/from ['"]date-fns['"]/.test(line) && /\bformat\b/.test(line))
      found.push(`${where} (date-fns format)`);
  });
  return found;
}

// date-fns `format` with fixed machine patterns ('yyyy-MM-dd' keys of reports) and the calendar
// component's localizer (react-big-calendar asks for date-fns' format by contract).
const DATE_FNS_FORMAT_ALLOWED = [
  'cloud/src/modules/reports/dashboard.ts',
  'cloud/src/modules/reports/report-runner.ts',
  'web/backoffice/appointments/StaffCalendarScreen.tsx',
  'web/backoffice/schedule/ScheduleCalendar.tsx',
];

describe('dates are formatted only by shared/i18n/dates.ts', () => {
  it('no ad hoc date or time formatting outside the formatter', () => {
    const found = SCANNED.flatMap((dir) => sources(join(ROOT, dir)))
      .map((path) => relative(ROOT, path))
      .filter((file) => file !== FORMATTER)
      .flatMap((file) =>
        adHocDateFormatting(file, readFileSync(join(ROOT, file), 'utf8')).filter(
          (hit) => !(hit.endsWith('(date-fns format)') && DATE_FNS_FORMAT_ALLOWED.includes(file)),
        ),
      );
    expect(found).toEqual([]);
  });

  it('catches the forms it forbids, lets the machine ones through', () => {
    const hits = (line: string) => adHocDateFormatting('x.ts', line).length;
    expect(hits('new Date(a).toLocaleDateString(i18n.language)')).toBe(1);
    expect(hits('d.toLocaleTimeString("en-GB")')).toBe(1);
    expect(hits('new Date(a).toLocaleString(lang, { dateStyle: "short" })')).toBe(1);
    expect(hits('new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" })')).toBe(1);
    expect(hits("new Intl.DateTimeFormat('en-GB', {")).toBe(1);
    expect(hits("import { format } from 'date-fns';")).toBe(1);
    expect(hits('const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;')).toBe(0);
    expect(hits("new Intl.DateTimeFormat('en-CA', { timeZone })")).toBe(0);
    expect(hits("at.toLocaleString('sv-SE', { timeZone })")).toBe(0);
  });
});
