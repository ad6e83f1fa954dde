import { describe, expect, it } from 'vitest';
import { decodeProtobufObject, PROTOBUF_MAGIC } from '../../../src/server/http/protobuf-body.js';
import { encode, entry, envelope, statusOf } from '../../helpers/protobuf-wire.js';

describe('decodeProtobufObject: kubectl 1.32+ create namespace', () => {
  // The exact 55-byte body of `kubectl create namespace demo` (kubectl-needs §4), by hand.
  const body = Buffer.from([
    ...[0x6b, 0x38, 0x73, 0x00], // magic "k8s\0"
    ...[0x0a, 0x0f], // Unknown.typeMeta, 15 bytes
    ...[0x0a, 0x02, ...Buffer.from('v1')], //   apiVersion
    ...[0x12, 0x09, ...Buffer.from('Namespace')], //   kind
    ...[0x12, 0x1c], // Unknown.raw, 28 bytes: a Namespace
    ...[0x0a, 0x14], //   metadata, 20 bytes
    ...[0x0a, 0x04, ...Buffer.from('demo')], //     name
    ...[0x12, 0x00, 0x1a, 0x00, 0x22, 0x00, 0x2a, 0x00, 0x32, 0x00], //     generateName..resourceVersion ""
    ...[0x38, 0x00], //     generation 0
    ...[0x42, 0x00], //     creationTimestamp: empty Time (Go's zero time)
    ...[0x12, 0x00], //   spec {}
    ...[0x1a, 0x02, 0x0a, 0x00], //   status {phase: ""}
    ...[0x1a, 0x00], // Unknown.contentEncoding ""
    ...[0x22, 0x00], // Unknown.contentType ""
  ]);

  it('is 55 bytes, as measured', () => {
    expect(body.length).toBe(55);
  });

  it('decodes to the JSON body kubectl 1.27-1.31 send (minus creationTimestamp: null)', async () => {
    expect(await decodeProtobufObject(body)).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'demo' },
      spec: {},
      status: {},
    });
  });

  it('keeps namespace finalizers and phase when sent', async () => {
    const ns = await decodeProtobufObject(
      envelope('v1', 'Namespace', [
        [1, 'message', [[1, 'string', 'x']]],
        [2, 'message', [[1, 'string', 'kubernetes']]],
        [3, 'message', [[1, 'string', 'Active']]],
      ]),
    );
    expect(ns).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'x' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });
});

describe('decodeProtobufObject: ConfigMap and Secret', () => {
  it('decodes a ConfigMap with data, binaryData (base64) and immutable', async () => {
    const cm = await decodeProtobufObject(
      envelope('v1', 'ConfigMap', [
        [
          1,
          'message',
          [
            [1, 'string', 'web-config'],
            [3, 'string', 'demo'],
            [8, 'message', [[1, 'varint', Date.parse('2025-01-01T00:00:00Z') / 1000]]],
            entry(11, 'app', 'web'),
          ],
        ],
        entry(2, 'a.txt', 'hello'),
        entry(2, 'b', ''),
        entry(3, 'blob', Uint8Array.from([0, 1, 2, 255])),
        [4, 'varint', 1],
      ]),
    );
    expect(cm).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: {
        name: 'web-config',
        namespace: 'demo',
        creationTimestamp: '2025-01-01T00:00:00Z',
        labels: { app: 'web' },
      },
      data: { 'a.txt': 'hello', b: '' },
      binaryData: { blob: 'AAEC/w==' },
      immutable: true,
    });
  });

  it('decodes a Secret with data (base64), stringData, type and an explicit immutable false', async () => {
    const secret = await decodeProtobufObject(
      envelope('v1', 'Secret', [
        [1, 'message', [[1, 'string', 'db']]],
        entry(2, 'password', Buffer.from('hunter2')),
        [3, 'string', 'Opaque'],
        entry(4, 'user', 'admin'),
        [5, 'varint', 0],
      ]),
    );
    expect(secret).toEqual({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 'db' },
      data: { password: Buffer.from('hunter2').toString('base64') },
      stringData: { user: 'admin' },
      type: 'Opaque',
      immutable: false,
    });
  });

  it('leaves out absent optional fields', async () => {
    const cm = await decodeProtobufObject(
      envelope('v1', 'ConfigMap', [[1, 'message', [[1, 'string', 'empty']]]]),
    );
    expect(cm).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'empty' } });
  });
});

describe('decodeProtobufObject: ObjectMeta', () => {
  it('decodes every field a create may carry', async () => {
    const obj = await decodeProtobufObject(
      envelope('v1', 'Secret', [
        [
          1,
          'message',
          [
            [2, 'string', 'tok-'],
            [3, 'string', 'demo'],
            [5, 'string', 'uid-1'],
            [6, 'string', '42'],
            [7, 'varint', 3],
            [
              8,
              'message',
              [
                [1, 'varint', 0],
                [2, 'varint', 5],
              ],
            ],
            entry(11, 'a', '1'),
            entry(12, 'note', 'x'),
            [
              13,
              'message',
              [
                [1, 'string', 'Deployment'],
                [3, 'string', 'web'],
                [4, 'string', 'uid-0'],
                [5, 'string', 'apps/v1'],
                [6, 'varint', 1],
              ],
            ],
            [14, 'string', 'example.com/cleanup'],
            [14, 'string', 'example.com/other'],
          ],
        ],
      ]),
    );
    expect(obj.metadata).toEqual({
      generateName: 'tok-',
      namespace: 'demo',
      uid: 'uid-1',
      resourceVersion: '42',
      generation: 3,
      // An explicit {seconds: 0} is the Unix epoch, unlike an empty Time.
      creationTimestamp: '1970-01-01T00:00:00Z',
      labels: { a: '1' },
      annotations: { note: 'x' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'uid-0', controller: true },
      ],
      finalizers: ['example.com/cleanup', 'example.com/other'],
    });
  });
});

describe('decodeProtobufObject: errors', () => {
  it('415s a kind it cannot decode, naming it and the supported group versions', async () => {
    const err = await statusOf(envelope('batch/v1', 'Job', [[1, 'message', [[1, 'string', 'web']]]]));
    expect(err.code).toBe(415);
    expect(err.reason).toBe('UnsupportedMediaType');
    expect(err.message).toBe(
      'protobuf bodies are supported for the kinds of v1, apps/v1, autoscaling/v1, coordination.k8s.io/v1, ' +
        'admissionregistration.k8s.io/v1, apiextensions.k8s.io/v1; send application/json for Job (batch/v1)',
    );
  });

  it('415s a supported kind name in another group', async () => {
    expect((await statusOf(envelope('example.com/v1', 'Secret', []))).code).toBe(415);
    expect((await statusOf(envelope('v1', 'Deployment', []))).code).toBe(415);
    expect((await statusOf(envelope('apps/v1', 'Service', []))).code).toBe(415);
  });

  it('400s a body without the magic', async () => {
    const err = await statusOf(Buffer.from('{"kind":"Namespace"}'));
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect((await statusOf(Buffer.alloc(2))).code).toBe(400);
  });

  it('400s a truncated envelope or object', async () => {
    const full = envelope('v1', 'ConfigMap', [entry(2, 'k', 'v')]);
    expect((await statusOf(full.subarray(0, full.length - 6))).code).toBe(400);
  });

  it('400s an envelope without a kind', async () => {
    expect(
      (await statusOf(Buffer.concat([PROTOBUF_MAGIC, encode([[2, 'bytes', new Uint8Array()]])]))).code,
    ).toBe(400);
  });
});
