import webpush from 'web-push';
import { v7 as uuidv7 } from 'uuid';
import type { Db } from '../../db/knex';

/**
 * Web push to the front office (issue 23): the installation's VAPID key pair, the clients'
 * subscriptions, and sending one message to a subscription (RFC 8030 push, RFC 8291 encryption,
 * RFC 8292 VAPID, all by the web-push package). The request is made here with fetch from
 * web-push's `generateRequestDetails`, with a timeout.
 *
 * The endpoint is a URL the browser got from its push service; the server POSTs to it, so only
 * the known push services are accepted (Google's, Mozilla's, Microsoft's, Apple's) over https, plus
 * the hosts listed in WEB_PUSH_ALLOWED_HOSTS (`host:port`, comma-separated: a self-hosted push
 * service, the tests' fake one).
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function vapidKeys(db: Db): Promise<VapidKeys> {
  const { VAPID_PUBLIC_KEY: pub, VAPID_PRIVATE_KEY: priv } = process.env;
  if (pub && priv) return { publicKey: pub, privateKey: priv };
  const row = await db('web_push_keys').where({ id: 1 }).first();
  if (row) return { publicKey: row.publicKey, privateKey: row.privateKey };
  const made = webpush.generateVAPIDKeys();
  // Two instances making keys at once: the first row wins and both use it.
  await db('web_push_keys')
    .insert({ id: 1, publicKey: made.publicKey, privateKey: made.privateKey })
    .onConflict('id')
    .ignore();
  const kept = (await db('web_push_keys').where({ id: 1 }).first())!;
  return { publicKey: kept.publicKey, privateKey: kept.privateKey };
}

const PUSH_SERVICES = [
  /(^|\.)googleapis\.com$/,
  /(^|\.)push\.services\.mozilla\.com$/,
  /(^|\.)notify\.windows\.com$/,
  /(^|\.)push\.apple\.com$/,
];

export function isAllowedEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  const extra = (process.env.WEB_PUSH_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  if (extra.includes(url.host)) return url.protocol === 'https:' || url.protocol === 'http:';
  return url.protocol === 'https:' && PUSH_SERVICES.some((re) => re.test(url.hostname));
}

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** Keeps a browser's subscription for the client (a browser signed in as someone else moves over). */
export async function saveSubscription(
  db: Db,
  studioId: string,
  userId: string,
  sub: PushSubscriptionInput,
  now: Date,
): Promise<void> {
  await db('push_subscriptions')
    .insert({
      id: uuidv7(),
      studioId,
      userId,
      endpoint: sub.endpoint,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
      createdAt: now,
    })
    .onConflict(['studioId', 'endpoint'])
    .merge(['userId', 'p256dh', 'auth', 'createdAt']);
}

export async function removeSubscription(
  db: Db,
  studioId: string,
  userId: string,
  endpoint: string,
): Promise<void> {
  await db('push_subscriptions').where({ studioId, userId, endpoint }).delete();
}

/** What the service worker shows: a title, a text, the page a tap opens, a tag that replaces. */
export interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export const vapidSubject = () => {
  if (process.env.VAPID_SUBJECT) return process.env.VAPID_SUBJECT;
  const from = process.env.MAIL_FROM ?? '';
  const address = /<([^>]+)>/.exec(from)?.[1] ?? (from.includes('@') ? from : 'no-reply@studio.local');
  return `mailto:${address}`;
};

/**
 * Sends one message to one subscription: 'sent', or 'gone' (404/410: the browser unsubscribed; the
 * row is removed). Any other answer throws (the job is retried). `topic` lets the push service
 * replace an undelivered copy of the same message (a retried batch).
 */
export async function sendPush(
  db: Db,
  keys: VapidKeys,
  sub: { id: string; endpoint: string; p256dh: string; auth: string },
  message: PushMessage,
  topic?: string,
): Promise<'sent' | 'gone'> {
  if (!isAllowedEndpoint(sub.endpoint)) {
    await db('push_subscriptions').where({ id: sub.id }).delete();
    return 'gone';
  }
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(message),
    {
      vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: 24 * 3600,
      urgency: 'normal',
      ...(topic ? { topic } : {}),
    },
  );
  const res = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ?? null,
    signal: AbortSignal.timeout(10_000),
    redirect: 'error',
  });
  await res.arrayBuffer().catch(() => undefined);
  if (res.status === 404 || res.status === 410) {
    await db('push_subscriptions').where({ id: sub.id }).delete();
    return 'gone';
  }
  if (res.status < 200 || res.status >= 300) throw new Error(`push service answered ${res.status}`);
  return 'sent';
}

/** The service worker of the front office: shows a push, opens its page when tapped. */
export const SERVICE_WORKER = `/* Web push of the studio's front office (issue 23). */
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { title: event.data ? event.data.text() : '' }; }
  event.waitUntil(self.registration.showNotification(data.title || '', {
    body: data.body || '',
    tag: data.tag || undefined,
    data: { url: data.url || self.registration.scope },
  }));
});
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || self.registration.scope;
  event.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => {
    for (const c of list) if (c.url === url && 'focus' in c) return c.focus();
    return self.clients.openWindow(url);
  }));
});
`;
