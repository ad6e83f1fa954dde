/**
 * IP address literals to the octets an iPAddress SAN holds (4 for IPv4, 16
 * for IPv6), or undefined for anything else, which is then a DNS name.
 *
 * Not `net.isIP`: its IPv6 check is one large backtracking regular
 * expression that costs 4-5 ms on first use and about 1 ms per call after,
 * measured; classifying the serving certificate's few hosts with it took
 * about as long as encoding and signing both certificates, out of issue
 * #11's 100 ms for import + start. Parsing the text forms directly is short
 * and yields the octets as well.
 */

/** One IPv4 part: 0-255 without leading zeros (which some parsers read as octal). */
const IPV4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** The octets of an IPv4 or IPv6 literal; undefined when `text` is not one. */
export function ipAddressOctets(text: string): Buffer | undefined {
  return text.includes(':') ? ipv6Octets(text) : ipv4Octets(text);
}

function ipv4Octets(text: string): Buffer | undefined {
  const parts = IPV4.exec(text);
  return parts ? Buffer.from(parts.slice(1).map(Number)) : undefined;
}

/**
 * RFC 4291 §2.2 text forms: eight hex groups, one `::` standing for one or
 * more zero groups, an optional dotted IPv4 tail (`::ffff:192.0.2.1`). A
 * zone (`fe80::1%eth0`) is dropped: it means nothing outside the host.
 */
function ipv6Octets(text: string): Buffer | undefined {
  const halves = text.replace(/%[^%]+$/, '').split('::');
  if (halves.length > 2) return undefined;
  const [head, tail] = halves.map((half) => (half === '' ? [] : half.split(':')));
  const last = tail ?? head;
  if (last.at(-1)?.includes('.')) {
    const ipv4 = ipv4Octets(last.at(-1) ?? '');
    if (!ipv4) return undefined;
    last.splice(-1, 1, ipv4.readUInt16BE(0).toString(16), ipv4.readUInt16BE(2).toString(16));
  }
  const written = head.length + (tail?.length ?? 0);
  if (tail === undefined ? written !== 8 : written > 7) return undefined;
  const groups = [...head, ...Array<string>(8 - written).fill('0'), ...(tail ?? [])];
  if (!groups.every((group) => HEX_GROUP.test(group))) return undefined;
  const octets = Buffer.alloc(16);
  for (const [i, group] of groups.entries()) octets.writeUInt16BE(Number.parseInt(group, 16), i * 2);
  return octets;
}
