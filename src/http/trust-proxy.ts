// The forms of `--trust-proxy` (docs/deployment.md, "Behind a proxy") and what fastify is given
// for each. Guarantees: the client address is the right-most X-Forwarded-For entry that is not
// a trusted proxy (@fastify/proxy-addr's walk from the socket's peer towards the left), never
// the client-supplied left-most one; X-Forwarded-Proto is read only when the socket's peer is
// trusted; a value of another form is refused with a message at start.
import { isIP } from 'node:net';

/** false: no proxy; a number: that many proxies in front (hops); a list: the proxies' addresses. */
export type TrustProxy = false | number | string[];

const NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_HOPS = 10;

/**
 * `--trust-proxy` alone (or `true`, `on`, `yes`): one proxy in front. `N`: N proxies (hops).
 * `ADDR,CIDR,…`: the proxies' addresses, ranges (10.0.0.0/8) and names (loopback, linklocal,
 * uniquelocal). `0`, `false`, `off`, `no`: none.
 */
export function parseTrustProxy(v: string | boolean | undefined): TrustProxy {
  if (v === undefined || v === false) return false;
  if (v === true) return 1;
  const s = v.trim().toLowerCase();
  if (['', 'true', 'on', 'yes'].includes(s)) return 1;
  if (['false', 'off', 'no', '0'].includes(s)) return false;
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    if (n > MAX_HOPS) throw new Error(`--trust-proxy: at most ${MAX_HOPS} proxies, not ${n}`);
    return n;
  }
  const list = s.split(',').map((a) => a.trim());
  for (const a of list)
    if (!validEntry(a))
      throw new Error(
        `--trust-proxy takes a number of proxies or their addresses (ADDR, ADDR/BITS, loopback, linklocal, uniquelocal), not "${a}"`,
      );
  return list;
}

function validEntry(a: string): boolean {
  if (NAMES.includes(a) || isIP(a) !== 0) return true;
  const [ip, bits, ...rest] = a.split('/');
  if (rest.length > 0 || bits === undefined || isIP(ip) === 0) return false;
  const max = isIP(ip) === 4 ? 32 : 128;
  return (/^\d+$/.test(bits) && Number(bits) <= max) || (isIP(ip) === 4 && isIP(bits) === 4);
}

/** fastify's `trustProxy` for a setting (`true`: one proxy). A hop count becomes "the first N hops from the socket". */
export function fastifyTrust(t: TrustProxy | true): false | string[] | ((addr: string, hop: number) => boolean) {
  if (t === true) t = 1;
  if (t === false || t === 0) return false;
  if (typeof t === 'number') {
    const hops = t;
    return (_addr, hop) => hop < hops;
  }
  return t;
}

/** How the admin settings page says it. */
export function describeTrust(t: TrustProxy | true): string {
  const v = t === true ? 1 : t;
  if (v === false || v === 0) return 'no';
  if (typeof v === 'number')
    return `yes: ${v === 1 ? 'one proxy' : `${v} proxies`} in front; the client is the ${v === 1 ? 'last' : `${v}th from the right`} X-Forwarded-For address`;
  return `yes: proxies at ${v.join(', ')}; the client is the right-most X-Forwarded-For address not among them`;
}
