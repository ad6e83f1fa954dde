/**
 * The IP and CIDR libraries (k8s.io/apiserver pkg/cel/library ip.go and cidr.go): `ip()`,
 * `isIP`, `ip.isCanonical`, `family`, `isUnspecified`, `isLoopback`, `isLinkLocalMulticast`,
 * `isLinkLocalUnicast`, `isGlobalUnicast`; `cidr()`, `isCIDR`, `containsIP`, `containsCIDR`,
 * `ip()`, `prefixLength`, `masked`; `string()` of both. Addresses parse as Go's
 * `netip.ParseAddr` does (no leading zeros in IPv4 octets), and upstream's `parseIPAddr` then
 * refuses zones and IPv4-mapped IPv6 addresses; prefixes as `netip.ParsePrefix`.
 */
import type { Environment } from '@marcbachmann/cel-js';

/** A `net.IP`: 4 or 16 bytes. */
export class KubeIP {
  constructor(readonly bytes: Uint8Array) {}
  toString(): string {
    return addrString(this.bytes);
  }
}
/** A `net.CIDR`: an address and a prefix length (not masked). */
export class KubeCIDR {
  constructor(
    readonly ip: KubeIP,
    readonly bits: number,
  ) {}
}

function parse4(s: string): Uint8Array | string {
  const parts = s.split('.');
  if (parts.length !== 4) return 'IPv4 address too short';
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^[0-9]{1,3}$/.test(p)) return 'unexpected character';
    if (p.length > 1 && p[0] === '0') return 'IPv4 field has octet with leading zero';
    const v = Number(p);
    if (v > 255) return 'IPv4 field has value >255';
    out[i] = v;
  }
  return out;
}

function parse6(s: string): Uint8Array | string {
  const out = new Uint8Array(16);
  const halves = s.split('::');
  if (halves.length > 2) return 'multiple :: in address';
  const groups = (h: string): number[] | string => {
    if (h === '') return [];
    const words: number[] = [];
    const parts = h.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parse4(p);
        if (typeof v4 === 'string') return v4;
        words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) words.push(Number.parseInt(p, 16));
      else
        return p.length > 4
          ? 'each colon-separated field must have at most 4 hex digits'
          : 'unexpected character';
    }
    return words;
  };
  const head = groups(halves[0]!);
  if (typeof head === 'string') return head;
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (typeof tail === 'string') return tail;
  const n = head.length + tail.length;
  if (halves.length === 1 ? n !== 8 : n > 7)
    return halves.length === 1 ? 'address string too short' : 'address string too long';
  const words = [...head, ...new Array<number>(8 - n).fill(0), ...tail];
  words.forEach((w, i) => {
    out[2 * i] = w >> 8;
    out[2 * i + 1] = w & 0xff;
  });
  return out;
}

/** `parseIPAddr`: the address, or the error upstream gives. */
export function parseIP(raw: string): KubeIP | string {
  let bytes: Uint8Array | string;
  if (raw.includes(':')) {
    if (raw.includes('%')) {
      const bad = parse6(raw.slice(0, raw.indexOf('%')));
      if (typeof bad === 'string' || raw.endsWith('%'))
        return `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): ${typeof bad === 'string' ? bad : 'zone must be a non-empty string'}`;
      return `IP address ${JSON.stringify(raw)} with zone value is not allowed`;
    }
    bytes = parse6(raw);
  } else bytes = raw.includes('.') ? parse4(raw) : 'unable to parse IP';
  if (typeof bytes === 'string')
    return `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): ${bytes}`;
  if (
    bytes.length === 16 &&
    bytes.slice(0, 10).every((b) => b === 0) &&
    bytes[10] === 0xff &&
    bytes[11] === 0xff
  )
    return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return new KubeIP(bytes);
}

/** netip `Addr.String`: dotted IPv4; IPv6 lowercase with the longest run of 2+ zero words as `::`. */
function addrString(b: Uint8Array): string {
  if (b.length === 4) return [...b].join('.');
  const words = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (ws: number[]): string => ws.map((w) => w.toString(16)).join(':');
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
}

const is4 = (ip: KubeIP): boolean => ip.bytes.length === 4;
const isUnspecified = (ip: KubeIP): boolean => ip.bytes.every((x) => x === 0);
const isLoopback = (ip: KubeIP): boolean =>
  is4(ip) ? ip.bytes[0] === 127 : ip.bytes.slice(0, 15).every((x) => x === 0) && ip.bytes[15] === 1;
const isMulticast = (ip: KubeIP): boolean =>
  is4(ip) ? (ip.bytes[0]! & 0xf0) === 0xe0 : ip.bytes[0] === 0xff;
const isLinkLocalUnicast = (ip: KubeIP): boolean =>
  is4(ip)
    ? ip.bytes[0] === 169 && ip.bytes[1] === 254
    : ip.bytes[0] === 0xfe && (ip.bytes[1]! & 0xc0) === 0x80;
const isLinkLocalMulticast = (ip: KubeIP): boolean =>
  is4(ip)
    ? ip.bytes[0] === 224 && ip.bytes[1] === 0 && ip.bytes[2] === 0
    : ip.bytes[0] === 0xff && (ip.bytes[1]! & 0x0f) === 0x02;
const isBroadcast = (ip: KubeIP): boolean => is4(ip) && ip.bytes.every((x) => x === 255);

/** `parseCIDR` (netip.ParsePrefix, then no IPv4-mapped addresses). */
export function parseCIDR(raw: string): KubeCIDR | string {
  const err = (why: string): string =>
    `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(raw)}): ${why}`;
  const slash = raw.lastIndexOf('/');
  if (slash < 0) return err("no '/'");
  const addr = raw.slice(0, slash);
  const bitsText = raw.slice(slash + 1);
  if (addr.includes('%')) return err('IPv6 zones cannot be present in a prefix');
  const ip = addr.includes(':') ? parse6(addr) : parse4(addr);
  if (typeof ip === 'string') return err(`ParseAddr(${JSON.stringify(addr)}): ${ip}`);
  const max = ip.length * 8;
  if (!/^(0|[1-9][0-9]{0,2})$/.test(bitsText) || Number(bitsText) > max)
    return err(`bad bits after slash: ${JSON.stringify(bitsText)}`);
  if (ip.length === 16 && ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff)
    return `IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`;
  return new KubeCIDR(new KubeIP(ip), Number(bitsText));
}

function maskedBytes(c: KubeCIDR): Uint8Array {
  const out = new Uint8Array(c.ip.bytes);
  for (let i = 0; i < out.length; i++) {
    const keep = Math.max(0, Math.min(8, c.bits - 8 * i));
    out[i] = out[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return out;
}

function contains(c: KubeCIDR, ip: KubeIP): boolean {
  if (ip.bytes.length !== c.ip.bytes.length) return false;
  return maskedBytes(new KubeCIDR(ip, c.bits)).every((b, i) => b === maskedBytes(c)[i]);
}

const orThrow = <T>(v: T | string): T => {
  if (typeof v === 'string') throw new Error(v);
  return v;
};
const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

class IPFunctions {}

/** Registers the IP and CIDR libraries. */
export function registerNetwork(env: Environment): void {
  env.registerType('net.IP', KubeIP);
  env.registerType('net.CIDR', KubeCIDR);
  env.registerFunction('ip(string): net.IP', (s: string) => orThrow(parseIP(s)));
  env.registerFunction('isIP(string): bool', (s: string) => typeof parseIP(s) !== 'string');
  // `ip.isCanonical(s)`: a receiver call on a constant named `ip`, as `format.x()` is.
  env.registerType('kubernetes.IPFunctions', IPFunctions);
  env.registerConstant('ip', 'kubernetes.IPFunctions', new IPFunctions());
  env.registerFunction(
    'kubernetes.IPFunctions.isCanonical(string): bool',
    (_ns: unknown, s: string) => orThrow(parseIP(s)).toString() === s,
  );
  env.registerFunction('string(net.IP): string', (ip: KubeIP) => ip.toString());
  env.registerFunction('net.IP.family(): int', (ip: KubeIP) => (is4(ip) ? 4n : 6n));
  env.registerFunction('net.IP.isUnspecified(): bool', isUnspecified);
  env.registerFunction('net.IP.isLoopback(): bool', isLoopback);
  env.registerFunction('net.IP.isLinkLocalMulticast(): bool', isLinkLocalMulticast);
  env.registerFunction('net.IP.isLinkLocalUnicast(): bool', isLinkLocalUnicast);
  env.registerFunction(
    'net.IP.isGlobalUnicast(): bool',
    (ip: KubeIP) =>
      !isUnspecified(ip) &&
      !isBroadcast(ip) &&
      !isLoopback(ip) &&
      !isMulticast(ip) &&
      !isLinkLocalUnicast(ip),
  );
  env.registerOperator('net.IP == net.IP', (a: KubeIP, b: KubeIP) => sameBytes(a.bytes, b.bytes));

  env.registerFunction('cidr(string): net.CIDR', (s: string) => orThrow(parseCIDR(s)));
  env.registerFunction('isCIDR(string): bool', (s: string) => typeof parseCIDR(s) !== 'string');
  env.registerFunction('string(net.CIDR): string', (c: KubeCIDR) => `${c.ip}/${c.bits}`);
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: KubeCIDR, s: string) =>
    contains(c, orThrow(parseIP(s))),
  );
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', contains);
  const containsCIDR = (c: KubeCIDR, o: KubeCIDR): boolean => c.bits <= o.bits && contains(c, o.ip);
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: KubeCIDR, s: string) =>
    containsCIDR(c, orThrow(parseCIDR(s))),
  );
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', containsCIDR);
  env.registerFunction('net.CIDR.ip(): net.IP', (c: KubeCIDR) => c.ip);
  env.registerFunction('net.CIDR.prefixLength(): int', (c: KubeCIDR) => BigInt(c.bits));
  env.registerFunction(
    'net.CIDR.masked(): net.CIDR',
    (c: KubeCIDR) => new KubeCIDR(new KubeIP(maskedBytes(c)), c.bits),
  );
  env.registerOperator(
    'net.CIDR == net.CIDR',
    (a: KubeCIDR, b: KubeCIDR) => a.bits === b.bits && sameBytes(a.ip.bytes, b.ip.bytes),
  );
}
