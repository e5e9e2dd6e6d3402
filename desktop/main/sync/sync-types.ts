import type { Outcome } from '../../../shared/contracts/sync';

export interface SyncStatus {
  online: boolean;
  /** Mutations written locally and not yet confirmed by the server. */
  pending: number;
  lastSyncAt: string | null;
  lastError: SyncErrorCode | null;
}

export type SyncErrorCode =
  | 'offline'
  | 'notRegistered'
  | 'deviceRevoked'
  | 'upgradeRequired'
  | 'clientReset'
  | 'seqGap'
  | 'serverError';

/** Named points where tests kill the process (kill -9 at named points). */
export type CrashPoint =
  'afterLocalCommit' | 'afterPushResponse' | 'duringPull' | 'duringBootstrapPage' | 'beforeBootstrapSwap';

export interface SyncEngineOptions {
  fetch?: typeof fetch;
  /** Device clock (ms); tests skew it. */
  clock?: () => number;
  /** Pages of bootstrap and pull. */
  bootstrapPageSize?: number;
  pullPageSize?: number;
  /** Poll interval when no poke arrives. */
  pollMs?: number;
  /** Called at named points (tests kill the process there). */
  hook?: (point: CrashPoint) => void;
}

export interface OutboxRow {
  seq: number;
  mutationId: string;
  name: string;
  version: number;
  args: Record<string, unknown>;
  occurredAt: string;
  actorId: string | null;
  isFact: boolean;
  status: 'pending' | 'acked';
  outcome: Outcome | null;
}

/** The keys of the station's `meta` table that the engine keeps its state in. */
export const META = {
  deviceId: 'deviceId',
  token: 'deviceToken',
  cloudUrl: 'cloudUrl',
  studioId: 'studioId',
  cursor: 'cursor',
  epoch: 'epoch',
  pullResume: 'pullResume',
  confirmedSeq: 'confirmedSeq',
  ackedThrough: 'ackedThrough',
  nextSeq: 'nextSeq',
  offset: 'clockOffsetMs',
  lastSyncAt: 'lastSyncAt',
  bootstrap: 'bootstrap',
  studio: 'studio',
} as const;

/** An answer of the cloud with a status of 400 or more (or a call refused before it left: 401). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(`HTTP ${status}`);
  }
}

/** A socket closed or reset under a request (not a timeout, not a refused connection). */
export function isDroppedConnection(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string } } | null)?.cause;
  return ['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE'].includes(cause?.code ?? '');
}
