/**
 * The one error type services throw. `key` is the stable name clients translate, `code` the stable
 * number users see as `status-code` (spec §8), `status` the HTTP status the envelope is sent with.
 */
export type FieldErrors = Record<string, string[]>;

export const ERRORS = {
  'request.invalid': { code: 1000, status: 400 },
  'request.malformedJson': { code: 1001, status: 400 },
  'request.tooLarge': { code: 1002, status: 413 },
  'request.unsupportedMediaType': { code: 1003, status: 415 },
  'auth.required': { code: 1100, status: 401 },
  'auth.invalidCredentials': { code: 1101, status: 401 },
  'auth.csrf': { code: 1102, status: 403 },
  'auth.forbidden': { code: 1103, status: 403 },
  'auth.sessionExpired': { code: 1104, status: 401 },
  'auth.resetTokenInvalid': { code: 1105, status: 400 },
  'auth.kioskInvalid': { code: 1106, status: 403 },
  'request.methodNotAllowed': { code: 1004, status: 405 },
  'resource.notFound': { code: 1200, status: 404 },
  'resource.conflict': { code: 1201, status: 409 },
  'resource.referenceInvalid': { code: 1202, status: 409 },
  'rateLimit.exceeded': { code: 1300, status: 429 },
  'studio.termsRequired': { code: 1400, status: 400 },
  'studio.slugTaken': { code: 1401, status: 409 },
  'staff.lastOwner': { code: 1500, status: 409 },
  'staff.roleInUse': { code: 1501, status: 409 },
  'staff.ownerRoleLocked': { code: 1502, status: 409 },
  'staff.alreadyMember': { code: 1503, status: 409 },
  'product.stockNegative': { code: 1750, status: 409 },
  'product.stockUntracked': { code: 1751, status: 409 },
  'voucher.archived': { code: 1752, status: 409 },
  'voucher.notYetValid': { code: 1753, status: 409 },
  'voucher.expired': { code: 1754, status: 409 },
  'voucher.usedUp': { code: 1755, status: 409 },
  'voucher.clientRequired': { code: 1756, status: 400 },
  'voucher.clientLimitReached': { code: 1757, status: 409 },
  'voucher.notApplicable': { code: 1758, status: 409 },
  'scheduleEvent.actionNotAllowed': { code: 1800, status: 409 },
  'internal.unexpected': { code: 1999, status: 500 },
} as const satisfies Record<string, { code: number; status: number }>;

export type ErrorKey = keyof typeof ERRORS;

export interface ErrorBody {
  code: number;
  key: ErrorKey;
  message: string;
  fields?: FieldErrors;
}

export interface ErrorEnvelope {
  error: ErrorBody;
}

export class AppError extends Error {
  readonly key: ErrorKey;
  readonly code: number;
  readonly status: number;
  readonly fields: FieldErrors | undefined;
  /** Extra headers the HTTP layer sends with this error (e.g. Retry-After). */
  readonly headers: Record<string, string> | undefined;

  constructor(
    key: ErrorKey,
    options: { message?: string; fields?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? key);
    this.name = 'AppError';
    this.key = key;
    this.code = ERRORS[key].code;
    this.status = ERRORS[key].status;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  toBody(): ErrorBody {
    return {
      code: this.code,
      key: this.key,
      message: this.message,
      ...(this.fields && Object.keys(this.fields).length > 0 ? { fields: this.fields } : {}),
    };
  }

  static notFound(what = 'resource'): AppError {
    return new AppError('resource.notFound', { message: `${what} not found` });
  }

  static invalid(fields: FieldErrors, message = 'invalid input'): AppError {
    return new AppError('request.invalid', { message, fields });
  }
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === 'object' && error !== null && 'code' in error && 'key' in error;
}
