/**
 * The strict check of a protobuf body: protobufjs, like upstream's decoder, skips fields its
 * schema does not list, so a field we have no mapping for would vanish from the stored object
 * without a word. Walking the wire bytes first turns that into a 415 that names the field, and
 * tells the client to send JSON, which we can store whole.
 *
 * Like protobufjs, this module is imported on the first protobuf request only.
 */
import protobuf from 'protobufjs';
import { StatusError } from '../../protocol/status.js';

/** Protobuf wire type 2: a length-delimited value (string, bytes, message, map entry). */
const LENGTH_DELIMITED = 2;

/** Map entries are messages with the key in field 1 and the value in field 2. */
const MAP_KEY = 1;
const MAP_VALUE = 2;

/**
 * Throws a 415 StatusError when `bytes` (a message of `type`) holds a field number `type` does not
 * list, at any depth: message-typed fields and message-typed map values are checked recursively.
 * Run it on bytes the decoder accepted: a malformed body is the decoder's to report (400).
 */
export function checkKnownFields(type: protobuf.Type, bytes: Uint8Array): void {
  const reader = protobuf.Reader.create(bytes);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const id = tag >>> 3;
    const wireType = tag & 7;
    const field = type.fieldsById[id]?.resolve();
    if (!field) throw unsupported(type.name, id);
    // For a map field resolvedType is the value's type (null for a scalar): each occurrence is one entry.
    const messageType = field.resolvedType instanceof protobuf.Type ? field.resolvedType : undefined;
    if (wireType === LENGTH_DELIMITED && field.map)
      checkMapEntry(`${type.name}.${field.name}`, messageType, reader.bytes());
    else if (wireType === LENGTH_DELIMITED && messageType) checkKnownFields(messageType, reader.bytes());
    else reader.skipType(wireType);
  }
}

function checkMapEntry(map: string, valueType: protobuf.Type | undefined, entry: Uint8Array): void {
  const reader = protobuf.Reader.create(entry);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const id = tag >>> 3;
    const wireType = tag & 7;
    if (id !== MAP_KEY && id !== MAP_VALUE) throw unsupported(`${map} entry`, id);
    if (id === MAP_VALUE && wireType === LENGTH_DELIMITED && valueType)
      checkKnownFields(valueType, reader.bytes());
    else reader.skipType(wireType);
  }
}

function unsupported(message: string, id: number): StatusError {
  return StatusError.of(
    'UnsupportedMediaType',
    `protobuf field ${id} of ${message} is not supported by watchmark; send application/json`,
  );
}
