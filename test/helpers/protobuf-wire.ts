import protobuf from 'protobufjs';
import { expect } from 'vitest';
import { StatusError } from '../../src/protocol/status.js';
import { decodeProtobufObject, PROTOBUF_MAGIC } from '../../src/server/http/protobuf-body.js';

/**
 * A field to encode with raw tags, so that these tests pin the upstream field numbers
 * independently of the schema inside protobuf.ts.
 */
export type Field =
  | [no: number, kind: 'string', value: string]
  | [no: number, kind: 'bytes', value: Uint8Array]
  | [no: number, kind: 'varint', value: number]
  | [no: number, kind: 'message', value: Field[]];

export function encode(fields: Field[]): Uint8Array {
  const w = protobuf.Writer.create();
  for (const [no, kind, value] of fields) {
    switch (kind) {
      case 'string':
        w.uint32((no << 3) | 2).string(value);
        break;
      case 'bytes':
        w.uint32((no << 3) | 2).bytes(value);
        break;
      case 'varint':
        w.uint32(no << 3).int64(value);
        break;
      case 'message':
        w.uint32((no << 3) | 2).bytes(encode(value));
        break;
    }
  }
  return w.finish();
}

/** A map entry: a message {1: key, 2: value}. */
export function entry(no: number, key: string, value: string | Uint8Array): Field {
  return [
    no,
    'message',
    [[1, 'string', key], typeof value === 'string' ? [2, 'string', value] : [2, 'bytes', value]],
  ];
}

/** The magic plus a runtime.Unknown {1: TypeMeta, 2: raw, 3: "", 4: ""}. */
export function envelope(apiVersion: string, kind: string, raw: Field[]): Buffer {
  const unknown = encode([
    [
      1,
      'message',
      [
        [1, 'string', apiVersion],
        [2, 'string', kind],
      ],
    ],
    [2, 'bytes', encode(raw)],
    [3, 'string', ''],
    [4, 'string', ''],
  ]);
  return Buffer.concat([PROTOBUF_MAGIC, unknown]);
}

export async function statusOf(body: Buffer): Promise<StatusError> {
  const err = await decodeProtobufObject(body).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StatusError);
  return err as StatusError;
}

/** Shorthands for the fields gogo-protobuf always sends, even at their zero value ("", 0, false, {}). */
export const str = (no: number, value = ''): Field => [no, 'string', value];
export const int = (no: number, value = 0): Field => [no, 'varint', value];
export const msg = (no: number, ...fields: Field[]): Field => [no, 'message', fields];

/** ObjectMeta (field `no`) as kubectl's generators fill it: a name, labels, zero values. */
export function meta(no: number, name: string, labels: Record<string, string>): Field {
  const zeros = [str(2), str(3), str(4), str(5), str(6), int(7), msg(8)];
  return msg(no, str(1, name), ...zeros, ...Object.entries(labels).map(([k, v]) => entry(11, k, v)));
}

/** A core/v1 Container (PodSpec field 2) as `kubectl create deployment` builds it. */
export function container(
  name: string,
  image: string,
  opts: { command?: string[]; port?: number; resources?: Field[] } = {},
): Field {
  const ports = opts.port === undefined ? [] : [msg(6, str(1), int(2), int(3, opts.port), str(4), str(5))];
  const command = (opts.command ?? []).map((c) => str(3, c));
  const zeros = [str(13), str(14), int(16), int(17), int(18), str(20)];
  return msg(
    2,
    str(1, name),
    str(2, image),
    ...command,
    str(5),
    ...ports,
    msg(8, ...(opts.resources ?? [])),
    ...zeros,
  );
}

/**
 * The body of `kubectl create deployment web` (kubectl 1.32+), PodSpec extras appended. Field for
 * field what kubectl 1.32 and 1.33 send (checked against captured bodies), like serviceBody below.
 */
export function deploymentBody(replicas: number, containers: Field[], podSpecExtra: Field[] = []): Buffer {
  const podSpecZeros = [str(3), str(6), str(8), str(9), str(10), int(11), int(12), int(13)];
  const podSpec = msg(2, ...containers, ...podSpecZeros, str(16), str(17), str(19), str(24), ...podSpecExtra);
  return envelope('apps/v1', 'Deployment', [
    meta(1, 'web', { app: 'web' }),
    msg(
      2,
      int(1, replicas),
      msg(2, entry(1, 'app', 'web')),
      msg(3, meta(1, '', { app: 'web' }), podSpec),
      msg(4, str(1)),
      int(5),
      int(7),
    ),
    msg(3, int(1), int(2), int(3), int(4), int(5), int(7)),
  ]);
}

/** A ServicePort (ServiceSpec field 1) as `--tcp=port:targetPort` makes it. */
export function servicePort(port: number, target: number | string, nodePort = 0): Field {
  const targetPort =
    typeof target === 'number'
      ? msg(4, int(1, 0), int(2, target), str(3))
      : msg(4, int(1, 1), int(2), str(3, target));
  return msg(1, str(1, `${port}-${target}`), str(2, 'TCP'), int(3, port), targetPort, int(5, nodePort));
}

/** The body of `kubectl create service <type> web` (kubectl 1.32+). */
export function serviceBody(
  type: string,
  ports: Field[],
  opts: { clusterIP?: string; externalName?: string } = {},
) {
  const spec = msg(
    2,
    ...ports,
    entry(2, 'app', 'web'),
    str(3, opts.clusterIP),
    str(4, type),
    str(7),
    str(8),
    str(10, opts.externalName),
    str(11),
    int(12),
    int(13),
  );
  return envelope('v1', 'Service', [meta(1, 'web', { app: 'web' }), spec, msg(3, msg(1))]);
}
