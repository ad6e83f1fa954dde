/**
 * The error Go's decoder gives for a protobuf body whose envelope does not decode, in its own
 * words: apimachinery runtime/serializer/protobuf/protobuf.go `Serializer.Decode` checks the
 * prefix, then runs runtime/generated.pb.go `Unknown.Unmarshal` (and `TypeMeta.Unmarshal` for its
 * typeMeta), gogo-protobuf code whose errors kube-apiserver quotes to the client (handlers/rest.go
 * `transformDecodeError`: "the object provided is unrecognized (must be of type ConfigMap):
 * proto: illegal wireType 7 (6b38...)"). The walk below follows those functions step by step, so
 * the first problem they would meet is the one named.
 */

/** Go's `fmt` of the prefix bytes `k8s\0`, as `Serializer.Decode` prints it. */
const PREFIX_WORDS = '[107 56 115 0]';

const ERR_OVERFLOW = 'proto: integer overflow';
const ERR_EOF = 'unexpected EOF';
const ERR_LENGTH = 'proto: negative length found during unmarshaling';
const ERR_END_OF_GROUP = 'proto: unexpected end of group';

/** A message's known fields: number → [Go field name, the nested message's table if any]. */
type Fields = Readonly<Record<number, readonly [string, MessageTable | undefined]>>;
interface MessageTable {
  readonly name: string;
  readonly fields: Fields;
}

// runtime/types.go: TypeMeta {APIVersion 1, Kind 2}; Unknown {TypeMeta 1, Raw 2, ContentEncoding 3, ContentType 4}.
const TYPE_META: MessageTable = {
  name: 'TypeMeta',
  fields: { 1: ['APIVersion', undefined], 2: ['Kind', undefined] },
};
const UNKNOWN: MessageTable = {
  name: 'Unknown',
  fields: {
    1: ['TypeMeta', TYPE_META],
    2: ['Raw', undefined],
    3: ['ContentEncoding', undefined],
    4: ['ContentType', undefined],
  },
};

class GoError extends Error {}

/** A varint as gogo reads it (`shift >= 64` is an overflow), as a signed Go int64. */
function varint(data: Uint8Array, at: { i: number }): bigint {
  let value = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (shift >= 64n) throw new GoError(ERR_OVERFLOW);
    if (at.i >= data.length) throw new GoError(ERR_EOF);
    const b = data[at.i++];
    value |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) break;
  }
  return BigInt.asIntN(64, value);
}

/** generated.pb.go `skipGenerated`: the length of one unknown field, groups included. */
function skip(data: Uint8Array): number {
  const at = { i: 0 };
  let depth = 0;
  while (at.i < data.length) {
    const wireType = Number(varint(data, at) & 7n);
    switch (wireType) {
      case 0:
        varint(data, at);
        break;
      case 1:
        at.i += 8;
        break;
      case 2: {
        const length = varint(data, at);
        if (length < 0n) throw new GoError(ERR_LENGTH);
        at.i += Number(length);
        break;
      }
      case 3:
        depth++;
        break;
      case 4:
        if (depth === 0) throw new GoError(ERR_END_OF_GROUP);
        depth--;
        break;
      case 5:
        at.i += 4;
        break;
      default:
        throw new GoError(`proto: illegal wireType ${wireType}`);
    }
    if (depth === 0) return at.i;
  }
  throw new GoError(ERR_EOF);
}

/** One message's generated `Unmarshal`, checking only what can fail. */
function unmarshal(table: MessageTable, data: Uint8Array): void {
  const at = { i: 0 };
  while (at.i < data.length) {
    const start = at.i;
    const wire = varint(data, at);
    const fieldNum = Number(BigInt.asIntN(32, wire >> 3n));
    const wireType = Number(wire & 7n);
    if (wireType === 4) throw new GoError(`proto: ${table.name}: wiretype end group for non-group`);
    if (fieldNum <= 0) {
      throw new GoError(
        `proto: ${table.name}: illegal tag ${fieldNum} (wire type ${BigInt.asUintN(64, wire)})`,
      );
    }
    const field = table.fields[fieldNum];
    if (!field) {
      at.i = start;
      const skipped = skip(data.subarray(at.i));
      if (at.i + skipped > data.length) throw new GoError(ERR_EOF);
      at.i += skipped;
      continue;
    }
    const [goName, nested] = field;
    // Every field of these two messages is length-delimited (string, bytes or message).
    if (wireType !== 2) throw new GoError(`proto: wrong wireType = ${wireType} for field ${goName}`);
    const length = varint(data, at);
    if (length < 0n) throw new GoError(ERR_LENGTH);
    const end = at.i + Number(length);
    if (end > data.length) throw new GoError(ERR_EOF);
    if (nested) unmarshal(nested, data.subarray(at.i, end));
    at.i = end;
  }
}

/**
 * Go's error for `body` as `Serializer.Decode` reports a failure before the object's own bytes
 * are read (the prefix, the runtime.Unknown envelope); undefined when the envelope decodes.
 */
export function envelopeError(body: Uint8Array): string | undefined {
  if (body.length === 0) return 'empty data';
  const prefix = [0x6b, 0x38, 0x73, 0x00];
  if (body.length < prefix.length || prefix.some((b, i) => body[i] !== b)) {
    return `provided data does not appear to be a protobuf message, expected prefix ${PREFIX_WORDS}`;
  }
  try {
    unmarshal(UNKNOWN, body.subarray(prefix.length));
    return undefined;
  } catch (err) {
    if (err instanceof GoError) return err.message;
    throw err;
  }
}

/** handlers/rest.go `summarizeData`: the first 30 bytes, as text when JSON-like, else in hex. */
export function summarizeData(body: Uint8Array, max = 30): string {
  if (body.length === 0) return '<empty>';
  const head = Buffer.from(body.subarray(0, max));
  const text = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > max ? `${text} ...` : text;
}
