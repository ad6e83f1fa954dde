/**
 * Protobuf bodies of every served built-in kind, as Go clients with
 * `ContentType: application/vnd.kubernetes.protobuf` send them (controller-runtime, client-go):
 * each object is encoded here with the same upstream schema (scripts/protobuf/proto/), POSTed,
 * and read back as JSON; it must equal the same object POSTed as JSON. The objects are written in
 * the JSON form Go's encoding/json gives the decoded struct (a nil list without omitempty is null,
 * a template's zero creationTimestamp is null, which the protobuf mapping leaves out as `omitzero`
 * asks), which is what kube-apiserver stores for either body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtobufObject, PROTOBUF_GROUP_VERSIONS } from '../../../src/server/http/protobuf-body.js';
import type { RunningServer } from '../../../src/server/index.js';
import { ensureNamespace, startTestServer } from '../../helpers/server.js';
import { comparable, createAndReadOn, protobufBody } from './all-kinds-fixture.js';
import { FIXTURES, type Fixture, trickyPod } from './fixtures.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, 'pb');
});

afterAll(async () => {
  await server.close();
});

const createAndRead = (fixture: Fixture, name: string, body: Buffer | object) =>
  createAndReadOn(server, fixture, name, body);

describe('a protobuf body of every served built-in kind', () => {
  it('covers every group version the server decodes', () => {
    // autoscaling/v1 is the Scale of the /scale subresources: see 'PUT as protobuf'.
    const groupVersions = new Set([...FIXTURES.map((f) => f.object('x').apiVersion), 'autoscaling/v1']);
    expect([...groupVersions].sort()).toEqual(Object.keys(PROTOBUF_GROUP_VERSIONS).sort());
  });

  for (const fixture of FIXTURES) {
    const kind = fixture.object('x').kind;
    it(`${kind}: POSTed as protobuf reads back as the same object POSTed as JSON`, async () => {
      const fromJson = await createAndRead(fixture, fixture.names[0], fixture.object(fixture.names[0]));
      const fromProtobuf = await createAndRead(
        fixture,
        fixture.names[1],
        protobufBody(fixture.object(fixture.names[1]), { goZeros: true }),
      );
      expect(comparable(fromProtobuf, fixture)).toEqual(comparable(fromJson, fixture));
    });
  }
});

describe('a Pod with every tricky type', () => {
  it('decodes to exactly the JSON it was encoded from', async () => {
    const pod = trickyPod('tricky');
    expect(await decodeProtobufObject(protobufBody(pod))).toEqual(pod);
  });

  it('decodes the bytes a Go client writes (every non-pointer field, zero or not) to the same JSON', async () => {
    const pod = trickyPod('tricky');
    const body = protobufBody(pod, { goZeros: true });
    expect(body.length).toBeGreaterThan(protobufBody(pod).length);
    expect(await decodeProtobufObject(body)).toEqual(pod);
  });

  it('round-trips through the server like its JSON form', async () => {
    const path = '/api/v1/namespaces/pb/pods';
    const fixture: Fixture = { path, names: ['tricky-json', 'tricky-pb'], object: trickyPod };
    const fromJson = await createAndRead(fixture, 'tricky-json', trickyPod('tricky-json'));
    const fromProtobuf = await createAndRead(fixture, 'tricky-pb', protobufBody(trickyPod('tricky-pb')));
    expect(comparable(fromProtobuf, fixture)).toEqual(comparable(fromJson, fixture));
    expect(fromProtobuf.spec.tolerations[0].tolerationSeconds).toBe(300);
    expect(fromProtobuf.spec.containers[0].livenessProbe.httpGet.port).toBe('http');
    expect(fromProtobuf.spec.containers[0].readinessProbe.tcpSocket.port).toBe(8080);
  });
});
