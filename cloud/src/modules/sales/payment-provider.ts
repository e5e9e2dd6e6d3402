import type { PaymentProviderName } from '../../../../shared/contracts/api/sales';
import type { PaymentOutcome } from '../../../../shared/domain/payments';
import type { ClientOrderRefundError, PaymentMethod } from '../../../../shared/enums';
import type { Db } from '../../db/knex';

/** Where the browser goes to pay: the form the `/app/form-redirect` page submits for us. */
export interface ProviderRedirect {
  url: string;
  method: 'GET' | 'POST';
  fields: Record<string, string>;
}

export interface CreatePaymentRequest {
  studioId: string;
  paymentId: string;
  amount: number;
  currency: string;
  description: string;
  /** Absolute URL of `/app/return?payment=…`: where the provider sends the payer back. */
  returnUrl: string;
  /** Absolute URL of the asynchronous notification (webhook) endpoint. */
  notifyUrl: string;
  /** The paying client (null for a walk-in or an anonymous donor). */
  clientId?: string | null;
  /** The client asked to keep the card for later payments (providers that can). */
  saveCard?: boolean;
}

/** What the notification route hands a provider besides the parsed body (signatures cover raw bytes). */
export interface NotificationRequest {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, string | string[] | undefined>;
}

/** A card saved with the provider (`client_payment_cards`). */
export interface SavedCard {
  id: string;
  studioId: string;
  clientId: string;
  provider: string;
  customerRef: string;
  methodRef: string;
}

export type SavedCardChargeResult =
  { status: 'succeeded'; providerRef: string } | { status: 'declined'; message: string };

export type ProviderRefundResult =
  | { status: 'success' | 'pending'; providerRef: string | null }
  | { status: 'failed'; error: ClientOrderRefundError };

/** A verified notification: which transaction, what happened, and an id to apply it only once. */
export interface ProviderNotification {
  /** Unique per studio's provider account; at most 63 characters (stored with the studio id). */
  eventId: string;
  studioId: string;
  providerRef: string;
  outcome: PaymentOutcome;
}

/**
 * What the sales module needs from an online payment provider. The test provider implements it in
 * this process; a real one wraps its official SDK. Providers never touch orders: the sales service
 * applies what they report (`applyPaymentOutcome`).
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The spec §3 method recorded on its payments. */
  readonly method: PaymentMethod;
  createPayment(
    db: Db,
    request: CreatePaymentRequest,
  ): Promise<{ providerRef: string; redirect: ProviderRedirect }>;
  /** The provider's view of a transaction (used on return, when a notification may be late or lost). */
  fetchStatus(db: Db, studioId: string, providerRef: string): Promise<PaymentOutcome | 'pending' | null>;
  /**
   * Gives money back. Called after the refund was recorded as awaiting and committed (never under a
   * row lock); `idempotencyKey` (the refund's id) makes a repeated call — the job that finishes a refund
   * whose process died mid-call — answer as the first one did instead of refunding twice.
   */
  refund(
    db: Db,
    studioId: string,
    providerRef: string,
    amount: number,
    idempotencyKey: string,
  ): Promise<ProviderRefundResult>;
  /**
   * Null when the body is not a genuine notification of this provider (bad signature, unknown
   * studio); 'ignored' for a genuine one about something the sales module does not follow.
   */
  verifyNotification(
    db: Db,
    body: unknown,
    request: NotificationRequest,
  ): Promise<ProviderNotification | 'ignored' | null>;
  /** `candidate`: keys typed on the settings screen and not saved yet (the saved ones otherwise). */
  testConnection(
    db: Db,
    studioId: string,
    candidate?: unknown,
  ): Promise<{ ok: boolean; message: string; reason?: string | null; livemode?: boolean }>;
  /** The payer came back through the provider's "cancel" link: end the transaction, report its state. */
  cancelPayment?(db: Db, studioId: string, providerRef: string): Promise<PaymentOutcome | 'pending' | null>;
  /** Charges a saved card without the client present (staff's bulk charge). */
  chargeSavedCard?(
    db: Db,
    request: {
      card: SavedCard;
      amount: number;
      currency: string;
      paymentId: string;
      description: string;
      idempotencyKey: string;
    },
  ): Promise<SavedCardChargeResult>;
  /** Forgets a saved card at the provider. */
  detachCard?(db: Db, card: SavedCard): Promise<void>;
}
