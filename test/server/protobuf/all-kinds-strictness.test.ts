/**
 * Protobuf bodies of every served built-in kind, as Go clients with
 * `ContentType: application/vnd.kubernetes.protobuf` send them (controller-runtime, client-go):
 * each object is encoded here with the same upstream schema (scripts/protobuf/proto/), POSTed,
 * and read back as JSON; it must equal the same object POSTed as JSON. The objects are written in
 * the JSON form Go's encoding/json gives the decoded struct (a nil list without omitempty is null,
 * a template's zero creationTimestamp is null, which the protobuf mapping leaves out as `omitzero`
 * asks), which is what kube-apiserver stores for either body.
 */
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtobufObject, PROTOBUF_MAGIC } from '../../../src/server/http/protobuf-body.js';
import type { RunningServer } from '../../../src/server/index.js';
import { goDuration } from '../../../src/server/protobuf/go-duration.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { PROTOBUF, protobufBody, root } from './all-kinds-fixture.js';
import { FIXTURES, type Fixture, trickyPod } from './fixtures.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, 'pb');
});

afterAll(async () => {
  await server.close();
});

describe('strictness and the hand-mapped types', () => {
  it('415s a Pod carrying a field number the upstream schema does not have', async () => {
    const body = protobufBody(trickyPod('future'));
    // Append PodSpec-level garbage: an unknown field 99 inside a Pod's spec, via a second spec
    // occurrence (protobuf merges repeated occurrences of a message field).
    const spec = protobuf.Writer.create()
      .uint32((99 << 3) | 2)
      .string('x')
      .finish();
    const pod = protobuf.Writer.create()
      .uint32((2 << 3) | 2)
      .bytes(spec)
      .finish();
    const unknown = root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    const envelope = unknown.toObject(unknown.decode(body.subarray(4)));
    const raw = Buffer.concat([envelope.raw as Uint8Array, pod]);
    const tampered = Buffer.concat([
      PROTOBUF_MAGIC,
      unknown.encode(unknown.fromObject({ ...envelope, raw })).finish(),
    ]);
    const answer = await call(server, 'POST', '/api/v1/namespaces/pb/pods', {
      body: tampered,
      headers: PROTOBUF,
    });
    expect(answer.status).toBe(415);
    expect(answer.body.message).toBe(
      'protobuf field 99 of PodSpec is not supported by watchmark; send application/json',
    );
  });

  it('writes meta/v1 Duration as Go prints a time.Duration', () => {
    expect([0, 1500, 1.5e6, 2e9, 61e9, 3.6e12, 3.6e12 + 1.5e9, 72 * 3.6e12, -5e9].map(goDuration)).toEqual([
      '0s',
      '1.5µs',
      '1.5ms',
      '2s',
      '1m1s',
      '1h0m0s',
      '1h0m1.5s',
      '72h0m0s',
      '-5s',
    ]);
  });

  it('writes a zero non-pointer Time as null and a MicroTime with 6 digits', async () => {
    const lease = FIXTURES.find((f) => f.object('x').kind === 'Lease') as Fixture;
    const decoded: any = await decodeProtobufObject(protobufBody(lease.object('l')));
    expect(decoded.spec.acquireTime).toBe('2026-01-02T03:04:05.123456Z');
    const node = FIXTURES.find((f) => f.object('x').kind === 'Node') as Fixture;
    const object = node.object('n');
    object.status.conditions[0].lastHeartbeatTime = null;
    const withNull: any = await decodeProtobufObject(protobufBody(object));
    expect(withNull.status.conditions[0].lastHeartbeatTime).toBeNull();
    expect(withNull.spec.taints[0].timeAdded).toBe('2026-01-02T03:04:05Z');
  });
});
