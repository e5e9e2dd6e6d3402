import { SCRIPT_ERROR_CHANNEL, type ClientLogInput } from '../../shared/contracts/api/entry';
import { formatVersion } from '../lib/version';

/**
 * Sends script errors and non-HTTP failures of the entry calls to POST log/post (spec §7, §8), at
 * most `limit` reports per page and each distinct message once, so a page stuck in an error loop
 * cannot flood the server (which also rate-limits the call). A failing report is dropped: reporting
 * must never raise an error of its own.
 */
export const MAX_REPORTS_PER_PAGE = 5;
const MAX_MESSAGE = 2000;
const MAX_STACK = 10_000;

export type SendClientLog = (input: ClientLogInput) => Promise<unknown>;

export function describeError(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) {
    const message = error.message ? `${error.name}: ${error.message}` : error.name;
    return { message, stack: error.stack ?? null };
  }
  if (typeof error === 'string') return { message: error, stack: null };
  try {
    return { message: JSON.stringify(error) ?? String(error), stack: null };
  } catch {
    return { message: String(error), stack: null };
  }
}

export class ErrorReporter {
  private sent = 0;
  private readonly seen = new Set<string>();

  constructor(
    private readonly send: SendClientLog,
    private readonly version: string,
    private readonly limit = MAX_REPORTS_PER_PAGE,
  ) {}

  /** How many reports this page has sent so far. */
  get count(): number {
    return this.sent;
  }

  /** Reports one error; `context` says where it came from (e.g. `auth/preflight`). False when dropped. */
  report(error: unknown, context?: string): boolean {
    const described = describeError(error);
    const message =
      (context ? `${context}: ${described.message}` : described.message).trim() || 'unknown error';
    if (this.sent >= this.limit || this.seen.has(message)) return false;
    this.seen.add(message);
    this.sent += 1;
    const input: ClientLogInput = {
      level: 'error',
      channel: SCRIPT_ERROR_CHANNEL,
      message: message.slice(0, MAX_MESSAGE),
      response: { stack: described.stack?.slice(0, MAX_STACK) ?? null, version: formatVersion(this.version) },
    };
    try {
      void this.send(input).catch(() => undefined);
    } catch {
      // A synchronous failure of the sender is dropped too.
    }
    return true;
  }
}

/** Window events the reporter listens to (a subset of Window, so tests can pass a fake). */
export interface ErrorEventTarget {
  addEventListener(type: 'error' | 'unhandledrejection', listener: (event: Event) => void): void;
  removeEventListener(type: 'error' | 'unhandledrejection', listener: (event: Event) => void): void;
}

/** Reports uncaught script errors and unhandled promise rejections; returns the uninstaller. */
export function reportGlobalErrors(target: ErrorEventTarget, reporter: ErrorReporter): () => void {
  const onError = (event: Event) => {
    const { error, message } = event as ErrorEvent;
    reporter.report(error ?? message ?? 'script error', 'window.onerror');
  };
  const onRejection = (event: Event) => {
    reporter.report((event as PromiseRejectionEvent).reason, 'unhandledrejection');
  };
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
