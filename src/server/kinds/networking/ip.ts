/**
 * IP addresses and CIDRs as kube-apiserver parses them (k8s.io/utils/net `ParseIPSloppy`,
 * `ParseCIDRSloppy`: Go's net parsers that still take IPv4 octets with leading zeros) and judges
 * them (apimachinery pkg/util/validation/ip.go: `IsValidIPForLegacyField`,
 * `IsValidCIDRForLegacyField` with strict validation, `IsValidIP`, `IsValidCIDR`), messages word
 * for word.
 */

import type { FieldError } from '../types.js';
import { invalid } from '../validation.js';

/** An address as 4 or 16 bytes, and whether its text was strict (netip would take it). */
interface ParsedIP {
  bytes: number[];
  /** An IPv4 octet had a leading zero (netip.ParseAddr refuses it). */
  leadingZero: boolean;
  /** Written as IPv6 (a 4in6 address is one of these). */
  v6: boolean;
}

function parseIPv4(text: string): { bytes: number[]; leadingZero: boolean } | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let leadingZero = false;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    if (p.length > 1 && p[0] === '0') leadingZero = true;
    bytes.push(n);
  }
  return { bytes, leadingZero };
}

function parseIPv6(text: string): { bytes: number[]; leadingZero: boolean } | undefined {
  let leadingZero = false;
  let tail: number[] = [];
  let head = text;
  // An embedded IPv4 address takes the last 32 bits.
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(text.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4.bytes;
    leadingZero = v4.leadingZero;
    head = text.slice(0, lastColon + 1);
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const wanted = tail.length > 0 ? 6 : 8;
  const groupsOf = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const halves = head.split('::');
  let groups: number[];
  if (halves.length > 2) return undefined;
  if (halves.length === 2) {
    const front = groupsOf(halves[0]);
    const back = groupsOf(halves[1]);
    // The ellipsis stands for one zero group at least.
    if (!front || !back || front.length + back.length > wanted - 1) return undefined;
    groups = [...front, ...new Array<number>(wanted - front.length - back.length).fill(0), ...back];
  } else {
    const all = groupsOf(head);
    if (!all || all.length !== wanted) return undefined;
    groups = all;
  }
  return { bytes: [...groups.flatMap((g) => [g >> 8, g & 255]), ...tail], leadingZero };
}

/** `ParseIPSloppy`: undefined when the text is no address (zones are refused). */
export function parseIP(text: string): ParsedIP | undefined {
  if (text.includes(':')) {
    const v6 = parseIPv6(text);
    return v6 ? { ...v6, v6: true } : undefined;
  }
  const v4 = parseIPv4(text);
  return v4 ? { ...v4, v6: false } : undefined;
}

/** Whether an IPv6 address is an IPv4-mapped one (`::ffff:a.b.c.d`). */
function is4in6(ip: ParsedIP): boolean {
  return ip.v6 && ip.bytes.slice(0, 10).every((b) => b === 0) && ip.bytes[10] === 255 && ip.bytes[11] === 255;
}

/** Go's `net.IP.String()`: dotted IPv4 (4in6 too), RFC 5952 IPv6. */
export function ipString(bytes: number[]): string {
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) {
    return bytes.slice(12).join('.');
  }
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes[i] * 256 + bytes[i + 1]);
  let bestAt = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestAt = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt < 0) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLen).join(':')}`;
}

/** The address family of a CIDR or address text: 4, 6, or undefined when it does not parse. */
export function familyOf(text: string): 4 | 6 | undefined {
  const ip = parseIP(text.split('/')[0]);
  if (!ip) return undefined;
  return ip.v6 && !is4in6(ip) ? 6 : 4;
}

/** IsValidIPForLegacyField (strict): parsable, no leading zeros, not 4in6. */
export function validateLegacyIP(
  field: string,
  value: string,
  oldValues: readonly string[] = [],
): FieldError[] {
  if (oldValues.includes(value)) return [];
  const ip = parseIP(value);
  if (!ip) return [invalid(field, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errors: FieldError[] = [];
  if (ip.leadingZero) errors.push(invalid(field, value, 'must not have leading 0s'));
  if (is4in6(ip)) errors.push(invalid(field, value, 'must not be an IPv4-mapped IPv6 address'));
  return errors;
}

/** `IsValidIP`: as the legacy check, then in canonical form. The messages only, for name checks. */
export function isValidIP(value: string): string[] {
  const ip = parseIP(value);
  if (!ip) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const errs: string[] = [];
  if (ip.leadingZero) errs.push('must not have leading 0s');
  if (is4in6(ip)) errs.push('must not be an IPv4-mapped IPv6 address');
  if (errs.length > 0) return errs;
  const canonical = ipString(ip.bytes);
  return canonical === value ? [] : [`must be in canonical form (${JSON.stringify(canonical)})`];
}

/** A CIDR as `ParseCIDRSloppy` reads it: the masked network, the prefix length, and strictness facts. */
interface ParsedCIDR {
  ip: ParsedIP;
  network: number[];
  bits: number;
  /** The prefix length was written with a leading zero. */
  prefixLeadingZero: boolean;
}

/** `ParseCIDRSloppy`. */
export function parseCIDR(text: string): ParsedCIDR | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(text.slice(0, slash));
  const prefix = text.slice(slash + 1);
  if (!ip || !/^[0-9]+$/.test(prefix)) return undefined;
  const bits = Number(prefix);
  const size = ip.bytes.length * 8;
  // net.ParseCIDR measures a 4in6 text's prefix against 128 bits.
  if (bits > size) return undefined;
  const network = ip.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  return { ip, network, bits, prefixLeadingZero: prefix.length > 1 && prefix[0] === '0' };
}

function cidrErrors(field: string, value: string): { parsed?: ParsedCIDR; errors: FieldError[] } {
  const parsed = parseCIDR(value);
  if (!parsed) {
    return {
      errors: [invalid(field, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')],
    };
  }
  const { ip } = parsed;
  if (ip.leadingZero || parsed.prefixLeadingZero) {
    return { parsed, errors: [invalid(field, value, 'must not have leading 0s in IP or prefix length')] };
  }
  if (is4in6(ip))
    return { parsed, errors: [invalid(field, value, 'must not have an IPv4-mapped IPv6 address')] };
  if (parsed.network.some((b, i) => b !== ip.bytes[i])) {
    return { parsed, errors: [invalid(field, value, 'must not have bits set beyond the prefix length')] };
  }
  return { parsed, errors: [] };
}

/** `IsValidCIDRForLegacyField` (strict). */
export function validateLegacyCIDR(
  field: string,
  value: string,
  oldValues: readonly string[] = [],
): FieldError[] {
  if (oldValues.includes(value)) return [];
  return cidrErrors(field, value).errors;
}

/** `IsValidCIDR`: as the legacy check, then in canonical form. */
export function validateCIDR(field: string, value: string): FieldError[] {
  const { parsed, errors } = cidrErrors(field, value);
  if (errors.length > 0 || !parsed) return errors;
  const canonical = `${ipString(parsed.network)}/${parsed.bits}`;
  return canonical === value
    ? []
    : [invalid(field, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
}

/** Whether `inner` lies inside `outer` with a longer prefix (ValidateIPBlock's strict subset). */
export function strictSubset(outer: string, inner: string): boolean {
  const o = parseCIDR(outer);
  const i = parseCIDR(inner);
  if (!o || !i) return false;
  const ob = o.network.length === 16 && is4in6(o.ip) ? o.network.slice(12) : o.network;
  const ib = i.ip.bytes.length === 16 && is4in6(i.ip) ? i.network.slice(12) : i.network;
  const oBits = o.network.length === 16 && is4in6(o.ip) ? o.bits - 96 : o.bits;
  const iBits = i.network.length === 16 && is4in6(i.ip) ? i.bits - 96 : i.bits;
  if (ob.length !== ib.length) return false;
  for (let k = 0; k < ob.length; k++) {
    const keep = Math.max(0, Math.min(8, oBits - k * 8));
    const mask = (0xff << (8 - keep)) & 0xff;
    if ((ib[k] & mask) !== ob[k]) return false;
  }
  return oBits < iBits;
}
