import type { Knex } from 'knex';
import type Koa from 'koa';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import type { Membership, Session, Studio, StudioWithMembership, User } from '../modules/identity/index';
import type { Clock } from '../clock';
import type { RateLimits } from './rate-limit';

/** Long-lived collaborators, created once per server and shared by every request. */
export interface Deps {
  config: Config;
  knex: Knex;
  log: Logger;
  mailer: Mailer;
  clock: Clock;
  rateLimits: RateLimits;
  /** Where the built web apps are (dist/web), or a dev renderer in `--dev`. */
  web: import('./pages').WebAssets;
}

export interface AppState {
  requestId: string;
  log: Logger;
  auth: { user: User; session: Session } | null;
  /**
   * The studio named by the path (`/api/vN/{uuid}/…`) and the caller's membership in it, read with the
   * session (auth.ts); `loadStudioScope` takes it instead of reading again.
   */
  studioScope?: {
    studioId: string;
    userId: string;
    found: StudioWithMembership;
  };
  studio?: Studio;
  membership?: Membership;
  /** A public API call's key, checked by the integrations module before the route runs. */
  apiKey?: { id: string; studioId: string; scope: 'read' | 'read_write' };
}

export interface AppCustom {
  deps: Deps;
}

export type AppContext = Koa.ParameterizedContext<AppState, AppCustom>;
export type AppKoa = Koa<AppState, AppCustom>;

/** The context inside a route handler: the router has set the path parameters. */
export type RouteContext = AppContext & { params: Record<string, string> };
