import { z } from 'zod';
import { AppError, zodIssuesToFields, type FieldErrors } from '../../../shared/errors';
import type { AppContext } from './context';
import { recordServerError } from './server-error-log';

/**
 * One error envelope everywhere. Known failures become 4xx with field errors; anything else is a bug:
 * logged with the request id and answered 500 without details.
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof z.ZodError) return AppError.invalid(zodIssuesToFields(err.issues));
  const pg = pgErrorOf(err);
  if (pg) return pg;
  const status = httpStatusOf(err);
  if (status === 404) return AppError.notFound('route');
  if (status === 405) return new AppError('request.methodNotAllowed', { message: 'method not allowed' });
  if (status === 413) return new AppError('request.tooLarge', { message: 'request body too large' });
  if (status === 415)
    return new AppError('request.unsupportedMediaType', { message: 'send application/json' });
  if (status === 400) return new AppError('request.malformedJson', { message: 'malformed request body' });
  return null;
}

/** The fields of a PostgreSQL error that say what failed (node-postgres names them so). */
interface PgErrorFields {
  code?: unknown;
  severity?: unknown;
  detail?: unknown;
  column?: unknown;
}

/** `Key (studio_id, slug)=(…) already exists.`: the unique key's columns. */
const UNIQUE_COLUMNS = /Key \((.+)\)=\(.+\) already exists/;

/**
 * Errors of knex queries: read PostgreSQL's SQLSTATE directly (no model layer wraps them). A unique
 * violation names its key's columns and a
 * missing value its column, as field errors; class 22 (data exception: NUL bytes, out-of-range
 * numbers, bad uuid text) is bad input.
 */
function pgErrorOf(err: unknown): AppError | null {
  const e = err as PgErrorFields & { nativeError?: PgErrorFields };
  const native = typeof e?.code === 'string' && typeof e.severity === 'string' ? e : e?.nativeError;
  const code = native?.code;
  if (typeof code !== 'string' || code.length !== 5) return null;
  if (code.startsWith('22')) return AppError.invalid({ '': ['invalid value'] });
  // Still losing after transactionWithRetry's tries: the caller may send it again (never a 500).
  if (code === '40001' || code === '40P01')
    return new AppError('request.contended', {
      message: 'the request met a concurrent one; send it again',
      headers: { 'Retry-After': '1' },
    });
  if (code === '23505') {
    const fields: FieldErrors = {};
    const key = typeof native?.detail === 'string' ? UNIQUE_COLUMNS.exec(native.detail) : null;
    for (const column of key?.[1]?.split(',') ?? [])
      fields[camel(column.trim().replace(/^"(.*)"$/, '$1'))] = ['already taken'];
    return new AppError('resource.conflict', { message: 'already exists', fields });
  }
  if (code === '23503')
    return new AppError('resource.referenceInvalid', {
      message: 'referenced record is missing or still in use',
    });
  if (code === '23502' && typeof native?.column === 'string')
    return AppError.invalid({ [camel(native.column)]: ['required'] });
  if (code === '23502' || code === '23514') return AppError.invalid({ '': ['invalid value'] });
  return null;
}

function httpStatusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown };
  const status =
    typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  // Only client errors raised deliberately by Koa's own middleware (expose=true) are trusted.
  return status && status >= 400 && status < 500 && e.expose !== false ? status : undefined;
}

function camel(column: string): string {
  return column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

export async function errorMiddleware(ctx: AppContext, next: () => Promise<unknown>): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api/')) {
      throw AppError.notFound('route');
    }
  } catch (err) {
    const appError = toAppError(err);
    if (appError) {
      ctx.status = appError.status;
      ctx.body = { error: appError.toBody() };
      for (const [k, v] of Object.entries(appError.headers ?? {})) ctx.set(k, v);
      if (appError.status >= 500) ctx.state.log.error({ err }, 'request failed');
      if (appError.status === 500) recordServerError(ctx, err);
      return;
    }
    ctx.state.log.error({ err }, 'unhandled error');
    recordServerError(ctx, err);
    const bug = new AppError('internal.unexpected', { message: 'an unexpected error occurred' });
    ctx.status = 500;
    ctx.body = { error: bug.toBody() };
  }
}
