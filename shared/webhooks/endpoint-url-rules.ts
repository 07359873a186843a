/**
 * Which URLs a webhook endpoint may have: the guard against server-side request forgery
 * (Standard Webhooks spec, "Server side request forgery (SSRF)": do not let webhooks call
 * into internal networks). Checked when an endpoint is created or its URL changed, and again
 * by the delivery worker before each delivery (a name may resolve elsewhere later).
 *
 * Deployed stages (`STAGE` set and not `local`): `https:` only, no user name or password in
 * the URL, and a host that neither is nor resolves to a non-public address (every address a
 * name resolves to is checked). The local stack (`npm start`, tests: no `STAGE`) also allows
 * `http:` and loopback hosts, so it can deliver to a receiver on the same machine.
 *
 * Address classification uses node's `net.BlockList` (no dependency).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { isDeployedStage } from '../settings/deployed-stage';

/** Why a URL is refused. */
export type UrlRefusal = 'invalid_url' | 'scheme_not_allowed' | 'credentials_not_allowed' | 'address_not_allowed' | 'host_unresolvable';

/** The result of {@link checkEndpointUrl}. */
export type UrlVerdict =
  | {
      allowed: true;
      /**
       * The addresses the host was checked at (the literal, or every address the name
       * resolved to). A delivery may connect to one of them rather than resolve again, so
       * that a name cannot be re-pointed between the check and the connection.
       */
      addresses: string[];
    }
  | {
      allowed: false;
      reason: UrlRefusal;
      /** What is allowed, for the API's error message; never contains the URL. */
      message: string;
    };

/** One resolved address, as `dns.promises.lookup(host, {all: true})` returns it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (A and AAAA). Injectable for tests. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Options of {@link checkEndpointUrl}. */
export interface UrlRuleOptions {
  /** Allow loopback hosts (127.0.0.0/8, ::1) and `http:`: the local stack only. */
  allowLoopback: boolean;
  /** Allow `http:`; default: the value of `allowLoopback`. */
  allowHttp?: boolean;
  /** Name resolution; default node's `dns.promises.lookup(host, {all: true, verbatim: true})` with a 5 s limit. */
  resolve?: HostResolver;
}

/** Longest wait for a name's resolution before the URL is refused as unresolvable: 5000 ms. */
export const RESOLVE_TIMEOUT_MS = 5_000;

/** What a refused address is, for the error message. */
type AddressKind = 'private' | 'loopback' | 'link-local' | 'unspecified' | 'shared (CGNAT)' | 'cloud metadata' | 'reserved';

/** Address ranges that are never a public webhook receiver, by kind. IPv4-mapped IPv6 (::ffff:a.b.c.d) is checked as its IPv4 address. */
const RANGES: readonly { kind: AddressKind; v4: readonly [string, number][]; v6: readonly [string, number][] }[] = [
  // Cloud metadata first, so 169.254.169.254 is named as such rather than as link-local.
  {
    kind: 'cloud metadata',
    v4: [
      ['169.254.169.254', 32],
      ['169.254.170.2', 32],
      ['100.100.100.200', 32],
    ],
    v6: [['fd00:ec2::254', 128]],
  },
  { kind: 'loopback', v4: [['127.0.0.0', 8]], v6: [['::1', 128]] },
  { kind: 'unspecified', v4: [['0.0.0.0', 8]], v6: [['::', 128]] },
  {
    kind: 'private',
    v4: [
      ['10.0.0.0', 8],
      ['172.16.0.0', 12],
      ['192.168.0.0', 16],
    ],
    v6: [['fc00::', 7]],
  },
  { kind: 'link-local', v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] },
  { kind: 'shared (CGNAT)', v4: [['100.64.0.0', 10]], v6: [] },
  {
    kind: 'reserved',
    v4: [
      ['192.0.0.0', 24], // IETF protocol assignments
      ['192.0.2.0', 24], // documentation (TEST-NET-1)
      ['198.18.0.0', 15], // benchmarking
      ['198.51.100.0', 24], // documentation (TEST-NET-2)
      ['203.0.113.0', 24], // documentation (TEST-NET-3)
      ['224.0.0.0', 4], // multicast
      ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
      ['192.88.99.0', 24], // 6to4 relay anycast (deprecated, RFC 7526)
    ],
    v6: [
      ['::', 96], // IPv4-compatible (deprecated)
      ['64:ff9b::', 96], // NAT64: would reach an IPv4 address through a translator
      ['64:ff9b:1::', 48], // local-use NAT64
      ['100::', 64], // discard
      ['2001:db8::', 32], // documentation
      ['2001::', 32], // Teredo: tunnels to an embedded IPv4 address
      ['fec0::', 10], // site-local (deprecated, RFC 3879): private in practice
      ['2002::', 16], // 6to4: embeds an IPv4 address
      ['ff00::', 8], // multicast
    ],
  },
];

const BLOCKS: readonly { kind: AddressKind; list: BlockList }[] = RANGES.map(({ kind, v4, v6 }) => {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return { kind, list };
});

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, `::ffff:7f00:1`, or written in full) → its IPv4 address; other addresses unchanged. */
function unmapIpv4(address: string): string {
  if (!address.includes(':')) return address;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1); // the WHATWG parser's compressed, lower-case form
  } catch {
    return address;
  }
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!hex) return canonical;
  const hi = parseInt(hex[1] as string, 16);
  const lo = parseInt(hex[2] as string, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * Classifies an IP address.
 * @param address an IPv4 or IPv6 literal (brackets and an IPv6 zone `%eth0` are ignored)
 * @returns the kind of non-public address it is, or undefined for a public unicast address
 *   (or a string that is not an IP address)
 */
export function nonPublicAddressKind(address: string): AddressKind | undefined {
  const bare = unmapIpv4(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  const family = isIP(bare);
  if (family === 0) return undefined;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return BLOCKS.find((b) => b.list.check(bare, type))?.kind;
}

const defaultResolve: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** Runs `resolve` with {@link RESOLVE_TIMEOUT_MS}; undefined when it fails or takes too long. */
async function resolveWithin(resolve: HostResolver, hostname: string): Promise<ResolvedAddress[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((ok) => {
    timer = setTimeout(() => ok(undefined), RESOLVE_TIMEOUT_MS);
    timer.unref?.();
  });
  try {
    return await Promise.race([resolve(hostname).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a webhook endpoint URL against the stage's rules. Sends no traffic to the host:
 * only a name resolution (skipped for an IP literal).
 * @param url the URL as given
 * @param options {@link UrlRuleOptions}: use {@link urlRulesForStage} for the current stage
 * @returns `{allowed: true, addresses}`, or `{allowed: false, reason, message}` — a refusal is a
 *   verdict, never thrown; the message says what is allowed and never repeats the URL
 */
export async function checkEndpointUrl(url: string, options: UrlRuleOptions): Promise<UrlVerdict> {
  const allowHttp = options.allowHttp ?? options.allowLoopback;
  const publicHost = `its host must be a public internet address or a name that resolves only to public addresses${options.allowLoopback ? ' (or loopback, on the local stack)' : ''}`;
  const refuse = (reason: UrlRefusal, message: string): UrlVerdict => ({ allowed: false, reason, message });
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(
      'invalid_url',
      `The url must be an absolute ${allowHttp ? 'http or https' : 'https'} URL, e.g. https://example.com/webhooks.`,
    );
  }
  if (parsed.protocol !== 'https:' && !(allowHttp && parsed.protocol === 'http:')) {
    return refuse(
      'scheme_not_allowed',
      allowHttp ? 'The url must use https or http.' : 'The url must use https: webhook endpoints on this stage must be https URLs.',
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return refuse(
      'credentials_not_allowed',
      'The url must not contain a user name or password: deliveries are authenticated by their webhook-signature header.',
    );
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (host === '') return refuse('invalid_url', 'The url must name a host.');
  const addressRefusal = (kind: AddressKind) =>
    refuse(
      'address_not_allowed',
      `The url's host is or resolves to ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address, which cannot receive webhooks: ${publicHost}.`,
    );
  const allowedHere = (address: string) => {
    const kind = nonPublicAddressKind(address);
    return kind === undefined || (kind === 'loopback' && options.allowLoopback) ? undefined : kind;
  };

  if (isIP(host) !== 0) {
    const kind = allowedHere(host);
    return kind ? addressRefusal(kind) : { allowed: true, addresses: [host] };
  }
  const resolved = await resolveWithin(options.resolve ?? defaultResolve, host);
  if (!resolved || resolved.length === 0) {
    return refuse('host_unresolvable', `The url's host name could not be resolved: ${publicHost}.`);
  }
  for (const { address } of resolved) {
    const kind = allowedHere(address);
    if (kind) return addressRefusal(kind);
  }
  return { allowed: true, addresses: resolved.map((r) => r.address) };
}

/**
 * The URL rules of the current stage: deployed stages allow only https and public hosts;
 * the local stack (no `STAGE`, or `local`) also allows http and loopback.
 * @param env the environment (default `process.env`)
 */
export function urlRulesForStage(env: NodeJS.ProcessEnv = process.env): UrlRuleOptions {
  return { allowLoopback: !isDeployedStage(env) };
}
