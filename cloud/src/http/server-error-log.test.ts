import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppContext } from './context';
import { recordServerError } from './server-error-log';

const ctx = (headers: Record<string, string> = {}) =>
  ({
    method: 'POST',
    originalUrl: '/api/v4/x/thing?y=1',
    state: { requestId: 'req-1', log: { error: () => {} } },
    request: { body: { name: 'Ann' } },
    get: (name: string) => headers[name] ?? '',
  }) as unknown as AppContext;

const saved = process.env.SERVER_ERROR_LOG;
afterEach(() => {
  if (saved === undefined) delete process.env.SERVER_ERROR_LOG;
  else process.env.SERVER_ERROR_LOG = saved;
});

describe('the 500 log CI reads', () => {
  it('appends each 500 with its request, marking the ones a test announced', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 's5-')), 'nested', 'server-500.jsonl');
    process.env.SERVER_ERROR_LOG = file;
    recordServerError(ctx(), new Error('boom'));
    recordServerError(ctx({ 'x-expect-server-error': 'on purpose' }), new Error('planned'));
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      method: 'POST',
      url: '/api/v4/x/thing?y=1',
      requestId: 'req-1',
      expected: null,
    });
    expect(lines[0].body).toBe('{"name":"Ann"}');
    expect(lines[0].error).toContain('boom');
    expect(lines[1].expected).toBe('on purpose');
  });

  it('writes nothing without SERVER_ERROR_LOG', () => {
    delete process.env.SERVER_ERROR_LOG;
    expect(() => recordServerError(ctx(), new Error('boom'))).not.toThrow();
  });
});
