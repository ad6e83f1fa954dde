/**
 * The address and prefix questions the ServiceCIDR controller asks of its cache
 * (pkg/api/servicecidr/servicecidr.go `OverlapsPrefix`, `ContainsPrefix`, `ContainsAddress`, over
 * Go's net/netip): IPv4 and IPv6 alike, as numbers of 32 or 128 bits.
 */

/** An address: its family's width and its value. */
export interface Address {
  readonly bits: 32 | 128;
  readonly value: bigint;
}

/** A prefix: the masked network address and its length. */
export interface Prefix extends Address {
  readonly length: number;
}

/** A ServiceCIDR as the questions need it. */
export interface CidrHolder {
  metadata?: { name?: string };
  spec?: { cidrs?: string[] | null };
}

/** `netip.ParseAddr` of a canonical address (IPv4 dotted quad, or IPv6 with at most one `::`). */
export function parseAddress(text: string): Address | undefined {
  if (!text.includes(':')) {
    const parts = text.split('.');
    if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) {
      return undefined;
    }
    return { bits: 32, value: parts.reduce((n, p) => (n << 8n) | BigInt(p), 0n) };
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return { bits: 128, value: all.reduce((n, g) => (n << 16n) | BigInt(`0x${g}`), 0n) };
}

/** `netip.ParsePrefix`, masked. */
export function parsePrefix(text: string): Prefix | undefined {
  const slash = text.indexOf('/');
  const address = slash < 0 ? undefined : parseAddress(text.slice(0, slash));
  const lengthText = text.slice(slash + 1);
  if (!address || !/^\d{1,3}$/.test(lengthText)) return undefined;
  const length = Number(lengthText);
  if (length > address.bits) return undefined;
  return { ...address, length, value: address.value & mask(address.bits, length) };
}

function mask(bits: number, length: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return all ^ ((1n << BigInt(bits - length)) - 1n);
}

/** `Prefix.Overlaps`: same family, and one holds the other's network. */
export function overlaps(a: Prefix, b: Prefix): boolean {
  if (a.bits !== b.bits) return false;
  const shorter = Math.min(a.length, b.length);
  const m = mask(a.bits, shorter);
  return (a.value & m) === (b.value & m);
}

/**
 * `PrefixContainsIP`: the address is within the prefix, and not its network address nor, for
 * IPv4, its broadcast address (no ServiceCIDR hands those out).
 */
export function containsAddress(prefix: Prefix, address: Address): boolean {
  if (prefix.bits !== address.bits || address.value === prefix.value) return false;
  const hosts = (1n << BigInt(prefix.bits - prefix.length)) - 1n;
  if (prefix.bits === 32 && address.value === prefix.value + hosts) return false;
  return (address.value & mask(prefix.bits, prefix.length)) === prefix.value;
}

/** The ServiceCIDRs with a CIDR that `test` accepts, each once, in `cidrs`' order. */
function holders<T extends CidrHolder>(cidrs: readonly T[], test: (p: Prefix) => boolean): T[] {
  return cidrs.filter((sc) =>
    (sc.spec?.cidrs ?? []).some((c) => {
      const p = parsePrefix(c);
      return p !== undefined && test(p);
    }),
  );
}

/** `OverlapsPrefix`: the ServiceCIDRs with a CIDR that overlaps `prefix`. */
export function overlapping<T extends CidrHolder>(cidrs: readonly T[], prefix: Prefix): T[] {
  return holders(cidrs, (p) => overlaps(p, prefix));
}

/** `ContainsPrefix`: the ServiceCIDRs with a CIDR that holds all of `prefix`. */
export function containingPrefix<T extends CidrHolder>(cidrs: readonly T[], prefix: Prefix): T[] {
  return holders(cidrs, (p) => overlaps(p, prefix) && p.length <= prefix.length);
}

/** `ContainsAddress`: the ServiceCIDRs with a CIDR that holds `address`. */
export function containingAddress<T extends CidrHolder>(cidrs: readonly T[], address: Address): T[] {
  return holders(cidrs, (p) => containsAddress(p, address));
}
