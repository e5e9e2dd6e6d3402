import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, type Request, type Route } from '@playwright/test';
import type { EntryStudio, SignupStudio } from '../../../shared/contracts/api/entry';
import { readDemo, type DemoDetails } from './demo';

/**
 * Helpers of the entry app's e2e suites (tests/e2e/entry-*.e2e.ts): the demo details the e2e server
 * adds for them, canned answers for page.route, and a watcher of the calls a page makes.
 */
export interface EntryDemo extends DemoDetails {
  /** The demo studio's kiosk key (tests/e2e/support/server.ts reads it from the database). */
  kioskKey?: string | null;
  /** Where the server's file mailer writes (DATA_DIR/mail). */
  mailDir?: string;
}

/** The demo details (E2E_RESULTS_DIR moves demo.json for a second run on its own port). */
export function readEntryDemo(): EntryDemo {
  return readDemo() as EntryDemo;
}

export type EntryCall = 'auth/preflight' | 'studio/create' | 'app/search' | 'auth/kiosk' | 'log/post';

export const callUrl = (call: EntryCall) => `**/api/v4/${call}`;
const isCall = (request: Request, call: EntryCall) =>
  request.method() === 'POST' && new URL(request.url()).pathname === `/api/v4/${call}`;

/** Records page errors and every entry call the page sends (with its JSON body). */
export function watchPage(page: Page) {
  const pageErrors: string[] = [];
  const consoleLines: string[] = [];
  const requests: { call: EntryCall; body: Record<string, unknown> }[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('request', (request) => {
    for (const call of ['auth/preflight', 'studio/create', 'app/search', 'auth/kiosk', 'log/post'] as const) {
      if (isCall(request, call))
        requests.push({ call, body: (request.postDataJSON() ?? {}) as Record<string, unknown> });
    }
  });
  return {
    pageErrors,
    consoleLines,
    requests,
    bodies: (call: EntryCall) => requests.filter((r) => r.call === call).map((r) => r.body),
    count: (call: EntryCall) => requests.filter((r) => r.call === call).length,
  };
}

/** Answers an entry call with a fixed status and JSON body (the real server is not asked). */
export async function answer(page: Page, call: EntryCall, status: number, body?: unknown): Promise<void> {
  await page.route(callUrl(call), (route) =>
    route.fulfill({
      status,
      contentType: 'application/json',
      body: body === undefined ? '' : JSON.stringify(body),
    }),
  );
}

/** Holds an entry call until release(): to see loading states and locked buttons. */
export async function stall(page: Page, call: EntryCall) {
  const held: Route[] = [];
  await page.route(callUrl(call), (route) => {
    held.push(route);
  });
  return {
    held,
    /** Lets the held calls (and later ones) through to the real server. */
    async release() {
      for (const route of held.splice(0)) await route.continue();
      await page.unroute(callUrl(call));
    },
  };
}

export const serverError = (code = 1999) => ({ error: { code, key: 'internal', message: 'internal error' } });

/** Studio logos the canned answers point at, served by page.route (an SVG with the initial). */
export async function serveLogos(page: Page): Promise<void> {
  await page.route('**/e2e-logos/*.svg', (route) => {
    const letter = new URL(route.request().url()).pathname.split('/').pop()!.slice(0, 1).toUpperCase();
    return route.fulfill({
      contentType: 'image/svg+xml',
      body: `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" rx="12" fill="#7048e8"/><text x="32" y="43" font-family="sans-serif" font-size="30" fill="#fff" text-anchor="middle">${letter}</text></svg>`,
    });
  });
}

/** Two studios: the demo studio with a logo and a second one without logo or address. */
export function twoStudios(demo: EntryDemo): EntryStudio[] {
  return [
    {
      uuid: demo.studioUuid,
      name: demo.studioName,
      logoUrl: `${demo.baseURL}/e2e-logos/harmonia.svg`,
      rootSearchAddress: 'ul. Puławska 145, 02-715 Warszawa',
    },
    {
      uuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
      name: 'Studio Tańca Łódź',
      logoUrl: null,
      rootSearchAddress: '',
    },
  ];
}

export function asSignupStudio(studio: EntryStudio, baseURL: string): SignupStudio {
  const logo = studio.logoUrl ? { absoluteUrl: studio.logoUrl } : null;
  return {
    ...studio,
    appearance: { defaultLogo: logo },
    settings: { defaultLogo: logo },
    frontOfficeLink: `${baseURL}/${studio.uuid}/frontoffice`,
  };
}

/** An email address no test has used (the sign-up creates a studio for it). */
export function freshEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@e2e-entry.example`;
}

export function expectNoPageErrors(errors: string[]): void {
  expect(errors, 'uncaught errors in the page').toEqual([]);
}

/** The two interface languages; the browser's Accept-Language picks the page language. */
export const LANGUAGES = [
  { lang: 'en', locale: 'en-US' },
  { lang: 'pl', locale: 'pl-PL' },
] as const;
export type Lang = (typeof LANGUAGES)[number]['lang'];

/** The entry texts of a language, by key, with {{placeholders}} filled (for assertions). */
export function entryTexts(lang: Lang): (key: string, values?: Record<string, string>) => string {
  const file = new URL(`../../../locales/${lang}/entry.json`, import.meta.url);
  const texts = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  return (key, values = {}) => {
    const text = key
      .split('.')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], texts);
    if (typeof text !== 'string') throw new Error(`no entry text ${lang}:${key}`);
    return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
  };
}

/**
 * The welcome email the server's file mailer wrote for `to` (DATA_DIR/mail/<time>-<to>.eml), with
 * its quoted-printable text decoded; null while it is not there.
 */
export function readMailTo(mailDir: string, to: string, containing?: string): string | null {
  let names: string[];
  try {
    names = readdirSync(mailDir);
  } catch {
    return null;
  }
  for (const name of names.filter((n) => n.endsWith(`-${to}.eml`))) {
    const raw = readFileSync(path.join(mailDir, name), 'latin1');
    const decoded = raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    const text = Buffer.from(decoded, 'latin1').toString('utf8');
    if (!containing || text.includes(containing)) return text;
  }
  return null;
}
