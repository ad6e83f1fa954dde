/**
 * Issue 26, item 4 (protobuf half): decoding watch events from the
 * protobuf encoding kube-apiserver streams for built-in types against
 * JSON.parse of their JSON form, per event and per pod size (event-sizes.ts).
 *
 * The protobuf stream, as kube-apiserver writes it for
 * `Accept: application/vnd.kubernetes.protobuf;stream=watch`:
 * - each event is one frame: a 4-byte big-endian length, then the frame
 *   (k8s.io/apimachinery/pkg/util/framer/framer.go, lengthDelimitedFrameWriter,
 *   the protobuf `LengthDelimitedFramer` of
 *   pkg/runtime/serializer/protobuf/protobuf.go);
 * - the frame is a meta/v1 `WatchEvent{type, object: RawExtension{raw}}`
 *   written by the stream serializer, protobuf's `RawSerializer` (no
 *   envelope: codec_factory.go's protobuf `StreamSerializer`);
 * - `object.raw` is the object as the embedded encoder (protobuf
 *   `Serializer.Encode`) writes it: the magic `k8s\0`, then a
 *   runtime.Unknown{typeMeta{apiVersion, kind}, raw: the Pod's bytes}
 *   (apiserver/pkg/endpoints/handlers/watch.go, serveWatch's embeddedEncoder).
 * The bytes are generated here with protobufjs from the upstream schema in
 * ./proto (v1.36.3); the JSON pod is turned into protobufjs's shape by a
 * small converter (Time, Quantity, IntOrString). The JSON form is the same
 * pod as kube-apiserver would write it: the protobuf decoded through the
 * server's own Go-struct JSON mapping (src/server/protobuf/to-json.ts
 * `messageJson`), so both streams carry the same object.
 *
 * Decoders timed per event, each from the event's bytes:
 * - json: `buf.toString('utf8')` of the line, JSON.parse;
 * - pb-decode: frame -> WatchEvent -> magic check -> Unknown -> Pod
 *   (protobufjs message instances: fields with defaults on prototypes);
 * - pb-toObject: the same, then `Pod.toObject({longs: Number})` (plain
 *   object, proto field names, Time as {seconds, nanos});
 * - pb-json-shape: the same, then `messageJson` (what JSON.parse yields:
 *   RFC 3339 times, Quantity strings, omitempty rules).
 * Interleaved rounds (rotated order), the first a warm-up; median ns/event
 * and per-round ratio to json; bytes per event of each encoding.
 *
 *   npx tsx bench/experiments/protobuf-watch.ts [rounds]   # ~1 min at 7 rounds
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import protobuf from 'protobufjs';
import { messageJson, TO_OBJECT } from '../../src/server/protobuf/to-json.js';
import { otherLoad, readMachineCpu } from '../lib/machine-load.js';
import { median, ownCpuMs } from '../lib/report.js';
import { jsonEventLines, SIZES, type Size, sizedPod } from './event-sizes.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const STREAM_BYTES = 3_000_000;
const PROTO_FILES = [
  'k8s.io_apimachinery_pkg_runtime_schema_generated.proto',
  'k8s.io_apimachinery_pkg_runtime_generated.proto',
  'k8s.io_apimachinery_pkg_api_resource_generated.proto',
  'k8s.io_apimachinery_pkg_util_intstr_generated.proto',
  'k8s.io_apimachinery_pkg_apis_meta_v1_generated.proto',
  'k8s.io_api_core_v1_generated.proto',
];
const root = new protobuf.Root();
for (const f of PROTO_FILES)
  protobuf.parse(readFileSync(new URL(`../../scripts/protobuf/proto/${f}`, import.meta.url), 'utf8'), root, {
    keepCase: true,
  });
root.resolveAll();
const Pod = root.lookupType('k8s.io.api.core.v1.Pod');
const WatchEvent = root.lookupType('k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent');
const Unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** A JSON value of `type` in protobufjs's plain shape (for fromObject). */
function toProto(type: protobuf.Type, json: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of type.fieldsArray) {
    const v = json[field.name];
    if (v === undefined || v === null) continue;
    const conv = (x: unknown): unknown => {
      const t = field.resolvedType;
      if (!(t instanceof protobuf.Type)) return x;
      switch (t.fullName) {
        case '.k8s.io.apimachinery.pkg.apis.meta.v1.Time': {
          const ms = Date.parse(x as string);
          return { seconds: Math.floor(ms / 1000), nanos: 0 };
        }
        case '.k8s.io.apimachinery.pkg.api.resource.Quantity':
          return { string: x };
        case '.k8s.io.apimachinery.pkg.util.intstr.IntOrString':
          return typeof x === 'number' ? { type: 0, intVal: x } : { type: 1, strVal: x };
        default:
          return toProto(t, x as Record<string, unknown>);
      }
    };
    if (field.map)
      out[field.name] = Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, conv(x)]));
    else if (field.repeated) out[field.name] = (v as unknown[]).map(conv);
    else out[field.name] = conv(v);
  }
  return out;
}

/** One event as kube-apiserver frames it in a protobuf watch stream. */
function protobufFrame(pod: Record<string, unknown>): Buffer {
  const podBytes = Pod.encode(Pod.fromObject(toProto(Pod, pod))).finish();
  const unknown = Unknown.encode(
    Unknown.fromObject({
      typeMeta: { apiVersion: 'v1', kind: 'Pod' },
      raw: podBytes,
      contentEncoding: '',
      contentType: '',
    }),
  ).finish();
  const event = WatchEvent.encode(
    WatchEvent.fromObject({ type: 'MODIFIED', object: { raw: Buffer.concat([MAGIC, unknown]) } }),
  ).finish();
  const frame = Buffer.alloc(4 + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, 4);
  return frame;
}

interface Decoded {
  type: string;
  pod: unknown;
}

function decodeFrame(frame: Buffer): {
  type: string;
  typeMeta: { apiVersion: string; kind: string };
  pod: protobuf.Message;
} {
  const len = frame.readUInt32BE(0);
  const event = WatchEvent.decode(frame.subarray(4, 4 + len)) as unknown as {
    type: string;
    object: { raw: Uint8Array };
  };
  const raw = event.object.raw;
  if (raw[0] !== 0x6b || raw[1] !== 0x38 || raw[2] !== 0x73 || raw[3] !== 0) throw new Error('no k8s magic');
  const unknown = Unknown.decode(raw.subarray(4)) as unknown as {
    typeMeta: { apiVersion: string; kind: string };
    raw: Uint8Array;
  };
  return { type: event.type, typeMeta: unknown.typeMeta, pod: Pod.decode(unknown.raw) };
}

/** The JSON kube-apiserver writes for a decoded pod: apiVersion and kind (from the Unknown), then the Go struct's JSON. */
function jsonShape(d: ReturnType<typeof decodeFrame>): Record<string, unknown> {
  const body = messageJson(Pod, Pod.toObject(d.pod, TO_OBJECT)) as Record<string, unknown>;
  return { apiVersion: d.typeMeta.apiVersion, kind: d.typeMeta.kind, ...body };
}

const DECODERS: Record<string, (s: Stream, i: number) => Decoded> = {
  json: (s, i) => {
    const b = s.json[i];
    const e = JSON.parse(b.toString('utf8', 0, b.length - 1)) as { type: string; object: unknown };
    return { type: e.type, pod: e.object };
  },
  'pb-decode': (s, i) => decodeFrame(s.pb[i]),
  'pb-toObject': (s, i) => {
    const d = decodeFrame(s.pb[i]);
    return { type: d.type, pod: Pod.toObject(d.pod, TO_OBJECT) };
  },
  'pb-json-shape': (s, i) => {
    const d = decodeFrame(s.pb[i]);
    return { type: d.type, pod: jsonShape(d) };
  },
};

interface Stream {
  size: Size;
  events: number;
  json: Buffer[];
  pb: Buffer[];
}

const streams: Stream[] = SIZES.map((size) => {
  const one = jsonEventLines(size, 1)[0].length;
  const events = Math.ceil(STREAM_BYTES / one);
  const pb = Array.from({ length: events }, (_, i) =>
    protobufFrame(sizedPod(size, i, 1_000_000 + i) as unknown as Record<string, unknown>),
  );
  // The JSON form is what kube-apiserver writes for the same stored pod: the protobuf decoded through the
  // server's Go-struct JSON rules (fields without omitempty written: resources {}, lastProbeTime null, ...).
  const json = pb.map((f) => {
    const d = decodeFrame(f);
    return Buffer.from(`${JSON.stringify({ type: d.type, object: jsonShape(d) })}\n`);
  });
  const s = { size, events, json, pb };
  for (const i of [0, events - 1])
    if (!isDeepStrictEqual(DECODERS.json(s, i), DECODERS['pb-json-shape'](s, i)))
      throw new Error(`${size} #${i}: the two forms differ`);
  return s;
});

let sink = 0;
const names = Object.keys(DECODERS);
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const s of streams) {
  const jb = s.json.reduce((n, b) => n + b.length, 0) / s.events;
  const pbb = s.pb.reduce((n, b) => n + b.length, 0) / s.events;
  console.log(
    `${s.size}: ${s.events} events; bytes/event json ${jb.toFixed(0)} (with '\\n'), protobuf ${pbb.toFixed(0)} (with the 4-byte frame length), ratio ${(pbb / jb).toFixed(3)}`,
  );
}
const results: Array<{ other: number | undefined; ns: Record<string, number> }> = [];
for (let r = 0; r <= ROUNDS; r++) {
  const before = readMachineCpu();
  const c0 = ownCpuMs();
  const t0 = performance.now();
  const ns: Record<string, number> = {};
  for (const s of streams)
    for (let v = 0; v < names.length; v++) {
      const name = names[(v + r) % names.length];
      const fn = DECODERS[name];
      const t = performance.now();
      for (let i = 0; i < s.events; i++) sink += fn(s, i).type.length;
      ns[`${s.size}/${name}`] = ((performance.now() - t) * 1e6) / s.events;
    }
  const other = otherLoad(before, readMachineCpu(), ownCpuMs() - c0, performance.now() - t0)?.otherCpuPercent;
  if (r > 0) results.push({ other, ns });
  console.log(
    `round ${r}${r === 0 ? ' (warm-up)' : ''}: others ${other ?? '-'}%${other !== undefined && other > 10 ? ' BUSY' : ''}; load ${loadavg()[0].toFixed(2)}`,
  );
}
const quiet = results.filter((r) => r.other === undefined || r.other <= 10);
const used = quiet.length >= 5 ? quiet : results;
console.log(
  `\nmedians over ${used.length} rounds${used === quiet ? ' (others <= 10 % of a core)' : ' (ALL rounds: fewer than 5 quiet)'}; others per round: ${results.map((r) => r.other ?? '-').join(' ')}`,
);
console.log('size | decoder | ns/event | ratio to json');
for (const s of streams)
  for (const name of names)
    console.log(
      `${s.size} | ${name} | ${median(used.map((r) => r.ns[`${s.size}/${name}`])).toFixed(0)} | ${median(used.map((r) => r.ns[`${s.size}/${name}`] / r.ns[`${s.size}/json`])).toFixed(3)}`,
    );
if (sink === 0) console.log('');
