import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Calls to a studio's webhook URL must not reach the platform's own network (server-side request
 * forgery): private, loopback, link-local, carrier-grade NAT, multicast and reserved addresses are
 * refused, for the address in the URL and for every address its name resolves to. The check runs in
 * the socket's own lookup, so the address connected to is the one checked (no DNS rebinding between
 * check and connect). Loopback may be allowed by `WEBHOOKS_ALLOW_LOOPBACK`, which the configuration
 * refuses in production: the tests' receivers listen on 127.0.0.1.
 */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

let allowLoopback = false;

/** Set from the configuration at start (`WEBHOOKS_ALLOW_LOOPBACK`, never in production). */
export function configureWebhookNetwork(options: { allowLoopback: boolean }): void {
  allowLoopback = options.allowLoopback;
}

/** Why an address may not be called, or null when it may. */
export function refusedAddress(address: string): string | null {
  let ip = address.replace(/^\[|\]$/g, '');
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  const family = isIP(ip);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(ip, type)) return allowLoopback ? null : 'loopback address';
  if (PRIVATE.check(ip, type)) return 'private or reserved address';
  return null;
}

/** A URL whose host is a literal address that may not be called (names are checked when resolved). */
export function refusedUrl(url: string): string | null {
  const host = new URL(url).hostname;
  if (host === 'localhost' || host.endsWith('.localhost')) return allowLoopback ? null : 'loopback address';
  return isIP(host.replace(/^\[|\]$/g, '')) ? refusedAddress(host) : null;
}

export class RefusedAddressError extends Error {}

/** A `lookup` for http.request that resolves and refuses what may not be called. */
export function guardedLookup(
  hostname: string,
  options: { family?: number | string; all?: boolean } | number,
  callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.map((a) => refusedAddress(a.address)).find((r) => r !== null);
    if (bad || addresses.length === 0)
      return callback(
        new RefusedAddressError(`refused: ${hostname} is a ${bad ?? 'name without address'}`),
        '',
        0,
      );
    const all = typeof options === 'object' && options.all;
    if (all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
