/**
 * Pushing appointments to a member's own calendar (issue 21, spec §7 `google-calendar/oauth`): the
 * interface the appointments module uses, whatever the calendar service. `google-driver.ts` is the
 * Google Calendar implementation; tests run it against `testing/fake-google.ts` on loopback.
 */

export interface CalendarTokens {
  accessToken: string;
  /** Absent when the service did not issue a new one (a refresh keeps the old). */
  refreshToken: string | null;
  expiresAt: Date;
  /** The account's e-mail address, when the service tells it. */
  email: string | null;
}

/** One appointment as a calendar event. Instants; the time zone names the studio's. */
export interface CalendarEvent {
  summary: string;
  description: string;
  location: string | null;
  startsAt: Date;
  endsAt: Date;
  timeZone: string;
  /** Awaiting the studio's confirmation. */
  tentative: boolean;
}

export class CalendarAuthError extends Error {}

export interface CalendarDriver {
  readonly name: 'google';
  /** Where to send the browser to grant access; `state` comes back to the redirect URI. */
  authorizeUrl(state: string, redirectUri: string): string;
  exchangeCode(code: string, redirectUri: string): Promise<CalendarTokens>;
  /** A fresh access token; throws CalendarAuthError when access was withdrawn. */
  refresh(refreshToken: string): Promise<CalendarTokens>;
  insertEvent(accessToken: string, calendarId: string, event: CalendarEvent): Promise<string>;
  /** False when the event is gone (the member deleted it): the caller inserts it again. */
  updateEvent(
    accessToken: string,
    calendarId: string,
    eventId: string,
    event: CalendarEvent,
  ): Promise<boolean>;
  /** Removes an event; one already gone is fine. */
  deleteEvent(accessToken: string, calendarId: string, eventId: string): Promise<void>;
  /** Withdraws the grant (disconnecting); failures are ignored by the caller. */
  revoke(token: string): Promise<void>;
}

let current: CalendarDriver | null = null;

/** The app's configuration: Google when its OAuth client is set, else none. */
export function configureCalendarDriver(
  config: {
    GOOGLE_CLIENT_ID?: string;
    GOOGLE_CLIENT_SECRET?: string;
    GOOGLE_AUTH_URL?: string;
    GOOGLE_TOKEN_URL?: string;
    GOOGLE_API_URL?: string;
  },
  make: (settings: {
    clientId: string;
    clientSecret: string;
    authBaseUrl?: string;
    tokenBaseUrl?: string;
    apiBaseUrl?: string;
  }) => CalendarDriver,
): void {
  current =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? make({
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          authBaseUrl: config.GOOGLE_AUTH_URL,
          tokenBaseUrl: config.GOOGLE_TOKEN_URL,
          apiBaseUrl: config.GOOGLE_API_URL,
        })
      : null;
}

/** The configured driver (null: no calendar service is configured; the connect button says so). */
export function calendarDriver(): CalendarDriver | null {
  return current;
}

/** Set by the app from its configuration, or by a test. */
export function setCalendarDriver(driver: CalendarDriver | null): void {
  current = driver;
}
