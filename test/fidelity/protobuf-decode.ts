/**
 * Protobuf answers read back as the JSON they stand for, so both servers' protobuf answers are
 * compared by content after the usual normalisation (runner.ts `parseBody`, http.ts watches).
 * Uses watchmark's own schema and mapping (src/server/protobuf/answer.ts); a body that does not
 * decode is kept as `{unparsable: hex}` so the difference shows.
 */
import { loadProtobufCodec } from '../../src/server/protobuf/codec.js';

const codec = await loadProtobufCodec();

/** True for the Content-Type of a protobuf body or stream. */
export function isProtobuf(contentType: string | undefined): boolean {
  return contentType?.includes('application/vnd.kubernetes.protobuf') ?? false;
}

/** A protobuf body as JSON. */
export function decodeProtobufAnswer(bytes: Buffer): unknown {
  try {
    return codec.decodeBody(codec.root, bytes);
  } catch (err) {
    return { unparsable: bytes.toString('hex'), error: (err as Error).message };
  }
}

/** The complete frames of a protobuf watch stream as `{type, object}` events, and the rest. */
export function decodeProtobufFrames(stream: Buffer): { events: unknown[]; rest: Buffer } {
  return codec.decodeWatchFrames(codec.root, stream);
}
