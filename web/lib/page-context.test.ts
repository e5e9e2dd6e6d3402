import { describe, expect, it } from 'vitest';
import { PageContextError, parsePageContext, readPageContext } from './page-context';

const valid = {
  app: 'backoffice',
  baseUrl: 'http://localhost:3100',
  environment: 'test',
  sessionId: null,
  token: 'csrf',
  userId: null,
  studioUuid: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  locale: 'pl',
  version: '0.1.0.7',
};

const doc = (text: string | null) => ({
  getElementById: (id: string) =>
    id === 'page-context' && text !== null ? ({ textContent: text } as HTMLElement) : null,
});

describe('page context', () => {
  it('parses and validates', () => {
    expect(readPageContext('backoffice', doc(JSON.stringify(valid)))).toEqual(valid);
  });

  it('throws a clear error when missing', () => {
    expect(() => readPageContext(undefined, doc(null))).toThrow(PageContextError);
    expect(() => readPageContext(undefined, doc(null))).toThrow(/<!--page-context-->/);
  });

  it('rejects bad JSON, bad shape and another app', () => {
    expect(() => parsePageContext('{nope')).toThrow(/not valid JSON/);
    expect(() => parsePageContext(JSON.stringify({ ...valid, locale: 'de' }))).toThrow(/locale/);
    expect(() => parsePageContext(JSON.stringify(valid), 'kiosk')).toThrow(/"backoffice" app, not "kiosk"/);
  });
});
