/**
 * The IP rules of an Endpoints address (pkg/apis/core/validation `validateEndpointAddress`): the
 * legacy-field parse (apimachinery pkg/util/validation/ip.go `IsValidIPForLegacyField`, strict
 * since the StrictIPCIDRValidation gate went beta on in 1.36) and `ValidateEndpointIP`'s ranges
 * no endpoint may point into. Each check is reported apart, so an unparsable value gets both
 * messages, as kube-apiserver sends them.
 */

import type { FieldError } from '../types.js';
import { invalid } from '../validation.js';

/** An address's 16 bytes (IPv4 as IPv4-mapped IPv6, as Go's net.IP holds it), or undefined. */
type IPBytes = number[];

/** Go's pre-1.17 `net.ParseIP` (k8s.io/utils/net `ParseIPSloppy`): IPv4 octets may have leading zeros. */
export function parseIPSloppy(text: string): IPBytes | undefined {
  if (text.includes(':')) return parseIPv6(text);
  const v4 = parseIPv4(text);
  return v4 && [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4];
}

function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]+$/.test(p)) return undefined;
    const n = Number.parseInt(p, 10);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function parseIPv6(text: string): IPBytes | undefined {
  let s = text;
  let tail: number[] = [];
  // An embedded IPv4 address takes the last 32 bits.
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4(s.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
      out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !rest) return undefined;
  let words: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return undefined;
    words = [...head, ...new Array<number>(missing).fill(0), ...rest];
  } else {
    if (head.length !== 8) return undefined;
    words = head;
  }
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** The IPv4 part of an IPv4(-mapped) address, as Go's `To4`. */
function to4(ip: IPBytes): number[] | undefined {
  return ip.slice(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff
    ? ip.slice(12)
    : undefined;
}

/**
 * `IsValidIPForLegacyField` with strict validation: parsable by `ParseIPSloppy`, then (what
 * netip.ParseAddr refuses) no IPv4 octet with a leading 0 and no IPv4-mapped IPv6 form.
 */
export function validateLegacyIP(value: string, field: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [invalid(field, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errors: FieldError[] = [];
  const octets = value.slice(value.lastIndexOf(':') + 1).split('.');
  if (octets.length === 4 && octets.some((o) => o.length > 1 && o.startsWith('0'))) {
    errors.push(invalid(field, value, 'must not have leading 0s'));
  }
  if (value.includes(':') && to4(ip)) {
    errors.push(invalid(field, value, 'must not be an IPv4-mapped IPv6 address'));
  }
  return errors;
}

/** `ValidateEndpointIP`: no unspecified, loopback, link-local or link-local multicast address. */
export function validateEndpointIP(value: string, field: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [invalid(field, value, 'must be a valid IP address')];
  const errors: FieldError[] = [];
  const v4 = to4(ip);
  const unspecified = v4 ? v4.every((b) => b === 0) : ip.every((b) => b === 0);
  const loopback = v4 ? v4[0] === 127 : ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
  const linkLocalUnicast = v4 ? v4[0] === 169 && v4[1] === 254 : ip[0] === 0xfe && (ip[1] & 0xc0) === 0x80;
  const linkLocalMulticast = v4
    ? v4[0] === 224 && v4[1] === 0 && v4[2] === 0
    : ip[0] === 0xff && (ip[1] & 0x0f) === 0x02;
  if (unspecified) errors.push(invalid(field, value, `may not be unspecified (${value})`));
  if (loopback) errors.push(invalid(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (linkLocalUnicast) {
    errors.push(invalid(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  }
  if (linkLocalMulticast) {
    errors.push(
      invalid(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'),
    );
  }
  return errors;
}
