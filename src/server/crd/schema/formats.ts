/**
 * The string formats kube-apiserver checks in custom objects: the names
 * apiextensions-apiserver pkg/apiserver/validation/formats.go `supportedVersionedFormats` keeps,
 * checked as k8s.io/kube-openapi pkg/validation/strfmt's default registry checks them
 * (default.go `IsHostname`, `IsUUID`, `IsEmail`, ..., and kubernetes-extensions.go for
 * k8s-short-name and k8s-long-name). Go's parsers (net.ParseIP, net/url.ParseRequestURI,
 * net/mail.ParseAddress, time.ParseDuration) are approximated by the patterns below, which
 * agree with them on ordinary input. `password` accepts anything.
 */
import { isIPv6 } from 'node:net';
import { isDNS1123Label, isDNS1123Subdomain } from '../../kinds/validation-names.js';

type Check = (value: string) => boolean;

const re =
  (pattern: RegExp): Check =>
  (v) =>
    pattern.test(v);

// strfmt default.go HostnamePattern (IsHostname also limits the name to 255 bytes, each label to 63).
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;

const OCTET = '(0|[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-5])';
const RGB = new RegExp(`^rgb\\(\\s*${OCTET}\\s*,\\s*${OCTET}\\s*,\\s*${OCTET}\\s*\\)$`);

/** RFC 3339 full-date with a real calendar day (time.Parse of `2006-01-02`). */
function isDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days;
}

/**
 * strfmt time.go `IsDateTime`: lower-cased and split at `t`, a full-date, then
 * `hh:mm:ss[.frac]` with a zone `z` or `±hh:mm` (`DateTimePattern`), hours to 23, minutes and
 * seconds to 59.
 */
function isDateTime(v: string): boolean {
  if (v.length < 4) return false;
  const parts = v.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/.exec(parts[1]!);
  return m !== null && m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

const DURATION_UNITS = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/**
 * strfmt duration.go `ParseDuration`: a Go duration (`1h30m`), or else any `<digits><unit>`
 * found in the string whose unit is a known one or starts with its longest name (`5 minutes`).
 */
function isDuration(v: string): boolean {
  if (v === '0' || /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(v)) return true;
  for (const m of v.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = m[2]!.toLowerCase().trim();
    for (const variants of DURATION_UNITS) {
      if (
        variants.some(
          (variant, i) => variant === unit || (i === variants.length - 1 && unit.startsWith(variant)),
        )
      ) {
        return true;
      }
    }
  }
  return false;
}

/**
 * k8s.io/utils/net `ParseIPSloppy` for IPv4 (strfmt default.go `isIPv4`): four decimal fields
 * up to 255, leading zeros tolerated (as Go before 1.17); an IPv6 address holding a `.` (an
 * IPv4-mapped one) counts too.
 */
function isIPv4Sloppy(v: string): boolean {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(v)) return v.split('.').every((f) => Number(f) <= 255);
  return isIPv6(v) && v.includes('.');
}

/** `ParseCIDRSloppy` (strfmt default.go `isCIDR`): an address and a prefix length that fits it. */
function isCidr(v: string): boolean {
  const [ip, bits, more] = v.split('/');
  if (more !== undefined || ip === undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return isIPv4Sloppy(ip) && Number(bits) <= 32;
  return isIPv6(ip) && Number(bits) <= 128;
}

/** net.ParseMAC: 6, 8 or 20 octets separated by `:` or `-`, or groups of four hex digits by `.`. */
function isMac(v: string): boolean {
  for (const n of [6, 8, 20]) {
    if (new RegExp(`^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){${n - 1}}$`).test(v)) return true;
    if (new RegExp(`^[0-9a-fA-F]{2}(-[0-9a-fA-F]{2}){${n - 1}}$`).test(v)) return true;
    if (new RegExp(`^[0-9a-fA-F]{4}(\\.[0-9a-fA-F]{4}){${n / 2 - 1}}$`).test(v)) return true;
  }
  return false;
}

/** govalidator IsISBN10 / IsISBN13: digits (and a final X for 10) with the check digit right. */
function isIsbn(v: string, version: 10 | 13): boolean {
  const s = v.replace(/[\s-]/g, '');
  if (version === 10) {
    if (!/^\d{9}[\dX]$/.test(s)) return false;
    let sum = 0;
    for (let i = 0; i < 10; i++) sum += (10 - i) * (s[i] === 'X' ? 10 : Number(s[i]));
    return sum % 11 === 0;
  }
  if (!/^\d{13}$/.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(s[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

/** govalidator IsCreditCard: the digits match a card pattern and pass Luhn's check. */
function isCreditCard(v: string): boolean {
  const s = v.replace(/[^0-9]/g, '');
  const card =
    /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
  if (!card.test(s)) return false;
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    let d = Number(s[s.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

const CHECKS: Record<string, Check> = {
  bsonobjectid: re(/^[0-9a-fA-F]{24}$/),
  uri: re(/^([a-zA-Z][a-zA-Z0-9+.-]*:\S*|\/\S*)$/),
  email: re(/^([^<>]*<\s*)?[^\s@<>]+@[^\s@<>]+(\s*>)?$/),
  hostname: (v) =>
    HOSTNAME.test(v) && Buffer.byteLength(v) <= 255 && v.split('.').every((l) => Buffer.byteLength(l) <= 63),
  ipv4: isIPv4Sloppy,
  ipv6: (v) => isIPv6(v),
  cidr: isCidr,
  mac: isMac,
  uuid: re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i),
  uuid3: re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i),
  uuid4: re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i),
  uuid5: re(/^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i),
  isbn: (v) => isIsbn(v, 10) || isIsbn(v, 13),
  isbn10: (v) => isIsbn(v, 10),
  isbn13: (v) => isIsbn(v, 13),
  creditcard: isCreditCard,
  // govalidator IsSSN: eleven characters, so both separators.
  ssn: (v) => v.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(v),
  hexcolor: re(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  rgbcolor: re(RGB),
  // govalidator IsBase64: at least one group, so not the empty string.
  byte: re(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
  // strfmt kubernetes-extensions.go IsShortName, IsLongName: DNS-1123 label and subdomain.
  k8sshortname: (v) => isDNS1123Label(v).length === 0,
  k8slongname: (v) => isDNS1123Subdomain(v).length === 0,
};

/**
 * The check of a format, looked up as strfmt's registry does (`-` ignored, so `date-time` is
 * `datetime`), or undefined for a format it does not know (which is then not checked).
 */
export function formatChecker(format: string): Check | undefined {
  return CHECKS[format.replaceAll('-', '')];
}
