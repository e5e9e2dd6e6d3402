import { describe, expect, it, vi } from 'vitest';
import { SCRIPT_ERROR_CHANNEL, type ClientLogInput } from '../../shared/contracts/api/entry';
import {
  ErrorReporter,
  MAX_REPORTS_PER_PAGE,
  reportGlobalErrors,
  type ErrorEventTarget,
} from './error-reporter';

function setup(limit?: number) {
  const sent: ClientLogInput[] = [];
  const send = vi.fn(async (input: ClientLogInput) => {
    sent.push(input);
  });
  return { reporter: new ErrorReporter(send, '1.2.3', limit), sent, send };
}

describe('ErrorReporter', () => {
  it('sends level, channel 10004, message and response { stack, version }', () => {
    const { reporter, sent } = setup();
    const error = new TypeError('x is undefined');
    expect(reporter.report(error, 'auth/preflight')).toBe(true);
    expect(sent).toEqual([
      {
        level: 'error',
        channel: SCRIPT_ERROR_CHANNEL,
        message: 'auth/preflight: TypeError: x is undefined',
        response: { stack: error.stack, version: '1.2.3.0' },
      },
    ]);
  });

  it(`sends at most ${MAX_REPORTS_PER_PAGE} reports per page and each message once`, () => {
    const { reporter, sent } = setup();
    reporter.report(new Error('same'));
    reporter.report(new Error('same'));
    for (let i = 0; i < 20; i += 1) reporter.report(new Error(`error ${i}`));
    expect(sent).toHaveLength(MAX_REPORTS_PER_PAGE);
    expect(sent.map((s) => s.message)).toEqual([
      'Error: same',
      'Error: error 0',
      'Error: error 1',
      'Error: error 2',
      'Error: error 3',
    ]);
    expect(reporter.count).toBe(MAX_REPORTS_PER_PAGE);
  });

  it('keeps within the call bounds and describes non-Error values', () => {
    const { reporter, sent } = setup();
    reporter.report('x'.repeat(5000));
    reporter.report({ reason: 'object' });
    reporter.report(undefined);
    expect(sent[0]!.message).toHaveLength(2000);
    expect(sent[1]!.message).toBe('{"reason":"object"}');
    expect(sent[1]!.response?.stack).toBeNull();
    expect(sent[2]!.message).toBe('undefined');
  });

  it('a failing report is dropped silently', async () => {
    const reporter = new ErrorReporter(() => Promise.reject(new Error('offline')), '1.0.0.1');
    expect(reporter.report(new Error('a'))).toBe(true);
    const throwing = new ErrorReporter(() => {
      throw new Error('sync');
    }, '1.0.0.1');
    expect(() => throwing.report(new Error('b'))).not.toThrow();
  });
});

describe('reportGlobalErrors', () => {
  it('reports window errors and unhandled rejections until uninstalled', () => {
    const listeners = new Map<string, (event: Event) => void>();
    const target: ErrorEventTarget = {
      addEventListener: (type, listener) => listeners.set(type, listener),
      removeEventListener: (type) => listeners.delete(type),
    };
    const { reporter, sent } = setup();
    const uninstall = reportGlobalErrors(target, reporter);
    listeners.get('error')!({
      error: new Error('boom'),
      message: 'Uncaught Error: boom',
    } as unknown as Event);
    listeners.get('unhandledrejection')!({ reason: new Error('rejected') } as unknown as Event);
    listeners.get('error')!({ error: null, message: 'Script error.' } as unknown as Event);
    expect(sent.map((s) => s.message)).toEqual([
      'window.onerror: Error: boom',
      'unhandledrejection: Error: rejected',
      'window.onerror: Script error.',
    ]);
    uninstall();
    expect(listeners.size).toBe(0);
  });
});
