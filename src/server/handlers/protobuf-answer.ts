/**
 * Answers in protobuf, for a request whose Accept header chose `application/vnd.kubernetes.protobuf`
 * (client-go with `ContentType: application/vnd.kubernetes.protobuf`: kube-controller-manager,
 * kube-scheduler, controller-runtime clients so configured). Every answer of the request is
 * written in it, errors included (handlers/responsewriters/writers.go `WriteObjectNegotiated`,
 * `ErrorNegotiated`), and a watch streams length-prefixed WatchEvent frames. The JSON form the
 * handlers build is turned into protobuf at the end (../protobuf/answer.ts): one path for every
 * verb, at the cost of parsing the JSON text again.
 *
 * protobufjs and the schema are loaded on the first protobuf request, not at server start-up.
 */
import type { ServerResponse } from 'node:http';
import type { WatchEventType } from '../../protocol/events.js';
import type { EventEncoder } from '../cache/event.js';
import { type AnswerForm, answerIn } from '../http/http-io.js';
import { PROTOBUF_CONTENT_TYPE } from '../http/media-types.js';
import { loadProtobufCodec } from '../protobuf/codec.js';

/** The Content-Type of a protobuf watch stream (protobuf.go `LengthDelimitedFramer`). */
export const PROTOBUF_WATCH_CONTENT_TYPE = `${PROTOBUF_CONTENT_TYPE};stream=watch`;

/** The protobuf form of a request's answers; the codec is loaded on first use. */
export async function protobufAnswerForm(): Promise<AnswerForm> {
  const codec = await loadProtobufCodec();
  return {
    convert: (json) => codec.encodeBody(codec.root, JSON.parse(json) as Record<string, unknown>),
    contentType: PROTOBUF_CONTENT_TYPE,
  };
}

/**
 * Marks `res` so every answer written through `sendJson` (or only its errors) goes out in
 * protobuf, with `contentType` when the answer carries parameters (aggregated discovery's).
 */
export async function answerInProtobuf(
  res: ServerResponse,
  opts: { errorsOnly?: boolean; contentType?: string } = {},
): Promise<void> {
  const form = await protobufAnswerForm();
  answerIn(res, { ...form, ...opts, contentType: opts.contentType ?? form.contentType });
}

/**
 * A watch encoder sending `inner`'s events (plain objects, or PartialObjectMetadata) as protobuf
 * frames. Frames are shared by every watcher of the same inner form (the cache keys them by `id`).
 */
export async function protobufWatchEncoder(inner: EventEncoder): Promise<EventEncoder> {
  const codec = await loadProtobufCodec();
  const frame = (line: Buffer): Buffer =>
    codec.encodeWatchFrame(
      codec.root,
      JSON.parse(line.toString('utf8')) as {
        type: WatchEventType;
        object: Record<string, unknown>;
      },
    );
  return {
    id: `protobuf-${inner.id}`,
    encode: (type, object, objectJson) => frame(inner.encode(type, object, objectJson)),
    frame,
  };
}
