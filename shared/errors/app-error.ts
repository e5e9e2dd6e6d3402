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
  'visit.classFull': { code: 1810, status: 409 },
  'visit.alreadyBooked': { code: 1811, status: 409 },
  'visit.bookingNotOpen': { code: 1812, status: 409 },
  'visit.bookingClosed': { code: 1813, status: 409 },
  'visit.notBookableOnline': { code: 1814, status: 409 },
  'visit.notAccessible': { code: 1815, status: 409 },
  'visit.noPass': { code: 1816, status: 409 },
  'visit.conflict': { code: 1817, status: 409 },
  'visit.classCancelled': { code: 1818, status: 409 },
  'visit.classStarted': { code: 1819, status: 409 },
  'visit.notCancellable': { code: 1820, status: 409 },
  'visit.statusNotAllowed': { code: 1821, status: 409 },
  'visit.notWaiting': { code: 1822, status: 409 },
  'visit.overrideForbidden': { code: 1823, status: 403 },
  'visit.tooEarly': { code: 1824, status: 409 },
  'apiKey.invalid': { code: 1825, status: 401 },
  'places.nameTaken': { code: 1850, status: 409 },
  'places.inUse': { code: 1851, status: 409 },
  'places.archived': { code: 1852, status: 409 },
  'station.notSignedIn': { code: 2250, status: 401 },
  'station.wrongPin': { code: 2251, status: 401 },
  'station.pinLocked': { code: 2252, status: 429 },
  'station.unknownStaff': { code: 2253, status: 404 },
  'station.cloudUnreachable': { code: 2254, status: 503 },
  'station.pathNotAllowed': { code: 2255, status: 403 },
  'station.notStaffHere': { code: 2256, status: 403 },
  'station.notRegistered': { code: 2257, status: 409 },
  'visit.alreadyPaid': { code: 2270, status: 409 },
  'visit.notPayable': { code: 2271, status: 409 },
  'visit.passDoesNotCover': { code: 2272, status: 409 },
  'order.statusActionNotAllowed': { code: 2000, status: 409 },
  'order.notPayable': { code: 2001, status: 409 },
  'payment.providerUnavailable': { code: 2002, status: 409 },
  'payment.methodNotAllowed': { code: 2003, status: 409 },
  'payment.notificationInvalid': { code: 2004, status: 400 },
  'refund.transactionNotFound': { code: 2010, status: 409 },
  'refund.cannotRefund': { code: 2011, status: 409 },
  'refund.exceededAmount': { code: 2012, status: 409 },
  'refund.insufficientFunds': { code: 2013, status: 409 },
  'refund.unknown': { code: 2014, status: 409 },
  'wallet.insufficientFunds': { code: 2020, status: 409 },
  'checkout.idempotencyKeyRequired': { code: 2030, status: 400 },
  'checkout.idempotencyKeyReused': { code: 2031, status: 409 },
  'cart.empty': { code: 2040, status: 409 },
  'cart.itemUnavailable': { code: 2041, status: 409 },
  'payment.cardDeclined': { code: 2050, status: 409 },
  'payment.providerError': { code: 2051, status: 502 },
  'sync.deviceTokenInvalid': { code: 2200, status: 401 },
  'sync.reset': { code: 2201, status: 409 },
  'sync.seqGap': { code: 2202, status: 409 },
  'sync.commandUnknown': { code: 2203, status: 426 },
  'sync.transient': { code: 2204, status: 503 },
  'sync.deviceTaken': { code: 2205, status: 409 },
  'sync.issueClosed': { code: 2210, status: 409 },
  'invoice.sellerDetailsMissing': { code: 2100, status: 409 },
  'invoice.alreadyCancelled': { code: 2101, status: 409 },
  'invoice.cancelledNotCorrectable': { code: 2102, status: 409 },
  'invoice.hasCorrections': { code: 2103, status: 409 },
  'invoice.correctionNoChange': { code: 2104, status: 400 },
  'invoice.orderAlreadyInvoiced': { code: 2105, status: 409 },
  'invoice.correctiveNotCorrectable': { code: 2106, status: 409 },
  'invoice.orderNotInvoiceable': { code: 2107, status: 409 },
  // Issue 19: invoices for receipted sales, KSeF (2650–2699).
  'invoice.receiptUnresolved': { code: 2650, status: 409 },
  'invoice.receiptCoversOtherOrders': { code: 2651, status: 409 },
  'invoice.receiptBuyerNipMismatch': { code: 2652, status: 409 },
  'receipt.orderInvoiced': { code: 2653, status: 409 },
  // Issue 20: management insight — reports, payroll, the studio's data export (2800–2829).
  'studioExport.notReady': { code: 2800, status: 409 },
  // Issue 19: the accountant's JPK files (2730–2759).
  'accounting.settingsMissing': { code: 2730, status: 409 },
  'accounting.nothingToReport': { code: 2731, status: 409 },
  'accounting.rateNotInJpk': { code: 2732, status: 409 },
  // Issue 19: sending to KSeF (2700–2729).
  'ksef.invoiceSent': { code: 2700, status: 409 },
  'ksef.notConfigured': { code: 2701, status: 409 },
  'ksef.notResendable': { code: 2702, status: 409 },
  'ksef.invalidCertificate': { code: 2703, status: 400 },
  'visit.noLivestream': { code: 2108, status: 409 },
  'course.notStartable': { code: 2109, status: 409 },
  'course.bookAsWhole': { code: 2110, status: 409 },
  'contract.notForSale': { code: 1900, status: 409 },
  'clientContract.alreadyTerminated': { code: 1901, status: 409 },
  'clientContract.ended': { code: 1902, status: 409 },
  'clientContract.alreadySuspended': { code: 1903, status: 409 },
  'clientContract.notSuspended': { code: 1904, status: 409 },
  'clientContract.nothingToSuspend': { code: 1905, status: 409 },
  'retail.itemUnavailable': { code: 2300, status: 409 },
  'retail.basketInvalid': { code: 2301, status: 400 },
  'receipt.orderNotPaid': { code: 2310, status: 409 },
  'receipt.alreadyPrinted': { code: 2311, status: 409 },
  'studioPos.slugTaken': { code: 2350, status: 409 },
  'shift.alreadyOpen': { code: 2351, status: 409 },
  'shift.closed': { code: 2352, status: 409 },
  'shift.notEnoughCash': { code: 2353, status: 409 },
  'shift.salesWaiting': { code: 2354, status: 409 },
  'shift.notOpen': { code: 2355, status: 409 },
  'shift.printerFailed': { code: 2356, status: 502 },
  'pos.unavailable': { code: 2360, status: 503 },
  'pos.noStation': { code: 2361, status: 409 },
  'pos.discountNotAllowed': { code: 2362, status: 403 },
  'pos.itemUnknown': { code: 2363, status: 409 },
  'pos.nothingToResolve': { code: 2364, status: 404 },
  'pos.needsConnection': { code: 2365, status: 503 },
  'pos.totalChanged': { code: 2366, status: 409 },
  'pos.saleRefused': { code: 2367, status: 409 },
  'pos.saleNotSynced': { code: 2368, status: 409 },
  'pos.receiptUnresolved': { code: 2620, status: 409 },
  'kiosk.clientNotFound': { code: 2400, status: 404 },
  'kiosk.clientAmbiguous': { code: 2401, status: 409 },
  'kiosk.noPassCovers': { code: 2402, status: 409 },
  'kiosk.defaultKioskLocked': { code: 2403, status: 409 },
  'kiosk.sessionOnly': { code: 2404, status: 403 },
  'kiosk.methodDisabled': { code: 2405, status: 403 },
  'kiosk.stationNotSetUp': { code: 2420, status: 409 },
  'kiosk.notSignedIn': { code: 2421, status: 401 },
  'kiosk.needsConnection': { code: 2422, status: 503 },
  'kiosk.stationOnly': { code: 2423, status: 403 },
  // Entry services and video courses (issue 22): 2860–2889.
  'entry.closed': { code: 2860, status: 409 },
  'entry.dailyLimitReached': { code: 2861, status: 409 },
  'entry.full': { code: 2862, status: 409 },
  'entry.noPassCovers': { code: 2863, status: 409 },
  'entry.serviceArchived': { code: 2864, status: 409 },
  'entry.notForSale': { code: 3030, status: 409 },
  'video.transcoding': { code: 3031, status: 409 },
  'video.coursePurchased': { code: 3032, status: 409 },
  'video.notAvailable': { code: 2870, status: 409 },
  'video.noAccess': { code: 2871, status: 403 },
  'video.linkExpired': { code: 2872, status: 403 },
  'video.notRetryable': { code: 2873, status: 409 },
  'video.inUse': { code: 2874, status: 409 },
  'video.tooLarge': { code: 2875, status: 413 },
  'video.slugTaken': { code: 2876, status: 409 },
  'video.uploadIncomplete': { code: 2877, status: 409 },
  // Appointments (issue 21): 2830–2859.
  'appointment.slotTaken': { code: 2830, status: 409 },
  'appointment.outsideHours': { code: 2831, status: 409 },
  'appointment.memberNotOffering': { code: 2832, status: 409 },
  'appointment.bookingNotOpen': { code: 2833, status: 409 },
  'appointment.bookingClosed': { code: 2834, status: 409 },
  'appointment.notBookableOnline': { code: 2835, status: 409 },
  'appointment.noPass': { code: 2836, status: 409 },
  'appointment.noPrice': { code: 2837, status: 409 },
  'appointment.statusNotAllowed': { code: 2838, status: 409 },
  'appointment.notCancellable': { code: 2839, status: 409 },
  'appointment.overrideForbidden': { code: 2840, status: 403 },
  'appointment.clientBusy': { code: 2841, status: 409 },
  'appointment.serviceArchived': { code: 2842, status: 409 },
  'appointment.roomNotAtLocation': { code: 2843, status: 400 },
  'appointment.onlinePaymentUnavailable': { code: 2844, status: 409 },
  /** A transaction kept losing races (deadlock / serialization failure) after its retries: send it again. */
  'request.contended': { code: 2600, status: 409 },
  'request.httpsRequired': { code: 2560, status: 403 },
  'auth.emailVerificationInvalid': { code: 2561, status: 400 },
  /** Issue 29, the desk fleet (3000–3029): update feed, version floor, station logs. */
  'desktop.noRelease': { code: 3000, status: 404 },
  'desktop.tooOld': { code: 3001, status: 426 },
  'desktop.logsNotRequested': { code: 3002, status: 409 },
  'desktop.releaseCurrent': { code: 3050, status: 409 },
  /** Issue 25, studio administration (3130–3149). The IBAN is already one of the studio's accounts. */
  'studio.bankAccountTaken': { code: 3130, status: 409 },
  /** Issue 26, the schedule as a calendar (3150–3159): a move would double-book a room or an instructor. */
  'scheduleEvent.conflict': { code: 3150, status: 409 },
  /** Issue 25 (3190–3209): the studio already has an open request for the premium apps bundle. */
  'studio.bundleRequested': { code: 3190, status: 409 },
  // Communication (issue 23): campaigns, templates, automations — codes 2890–2919.
  /** The campaign's state does not allow this (edit a sent one, pause a draft, delete while sending). */
  'campaign.wrongStatus': { code: 2890, status: 409 },
  /** Sending needs a subject and text in the studio's default language (SMS: text only). */
  'campaign.contentMissing': { code: 2891, status: 409 },
  /** The channel cannot send from this installation yet (push without VAPID keys). */
  'campaign.channelUnavailable': { code: 2892, status: 409 },
  /** The filter reaches nobody. */
  'campaign.noRecipients': { code: 2893, status: 409 },
  /** The SMS text is longer than SMS_MAX_SEGMENTS parts. */
  'campaign.smsTooLong': { code: 2894, status: 400 },
  /** A scheduled time in the past. */
  'campaign.scheduleInPast': { code: 2895, status: 400 },
  /** The upload is not an image or PDF, or too large. */
  'campaign.fileRefused': { code: 2896, status: 400 },
  /** The scenario waits for another module (appointment reminders: appointments). */
  'automation.unavailable': { code: 2900, status: 409 },
  // Issue 24: integrations — API keys, webhooks, the public API's own calls (2920–2949).
  'apiKey.readOnly': { code: 2920, status: 403 },
  'apiKey.revoked': { code: 2921, status: 409 },
  'webhook.disabled': { code: 2922, status: 409 },
  'webhook.addressRefused': { code: 2923, status: 400 },
  'publicApi.loginFailed': { code: 2924, status: 401 },
  /** platform/checkin: the studio has no kiosk for the platform to act as (issue 24, 3010–3029). */
  'platform.noKiosk': { code: 3010, status: 409 },
  /** platform/token/destroy: no live key of that platform. */
  'platform.notConnected': { code: 3011, status: 404 },
  // Issue 25, the studio's subscription to the platform (3230–3259).
  /** An SMS campaign needs more SMS credits than the studio has left. */
  'subscription.smsCreditsExhausted': { code: 3230, status: 409 },
  /** An e-mail campaign needs more e-mail credits than the studio has left. */
  'subscription.emailCreditsExhausted': { code: 3231, status: 409 },
  /** The platform takes no online payments on this installation (no provider configured). */
  'subscription.paymentUnavailable': { code: 3232, status: 409 },
  /** A period's invoice before the period was paid. */
  'subscription.invoiceNotIssued': { code: 3233, status: 409 },
  // Issue 25, translations (3210–3229): the machine translator.
  /** No machine translator is configured on this server (no DEEPL_API_KEY). */
  'translator.notConfigured': { code: 3210, status: 409 },
  /** The translation service refused or failed (its key, its answer): try again later or type it. */
  'translator.unavailable': { code: 3211, status: 502 },
  /** The translation service's quota or rate is spent for now. */
  'translator.quotaExceeded': { code: 3212, status: 429 },
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
