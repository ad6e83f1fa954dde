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
import { decodeProtobufObject } from '../../../src/server/http/protobuf-body.js';
import type { RunningServer } from '../../../src/server/index.js';
import { ensureNamespace, startTestServer } from '../../helpers/server.js';
import { protobufBody } from './all-kinds-fixture.js';
import { FIXTURES, type Fixture } from './fixtures.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, 'pb');
});

afterAll(async () => {
  await server.close();
});

describe('a CRD schema with the JSONSchemaProps unions', () => {
  it('decodes additionalProperties false, a tuple of items and a dependencies list', async () => {
    const crd = FIXTURES.find((f) => f.object('x').kind === 'CustomResourceDefinition') as Fixture;
    const object = crd.object('unions');
    const spec = object.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    spec.properties.closed = { type: 'object', additionalProperties: false };
    spec.properties.pair = { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] };
    spec.dependencies = { color: ['size'], port: { required: ['size'] } };
    spec.properties.any = { 'x-kubernetes-preserve-unknown-fields': true, default: { a: [1, 'b', null] } };
    const decoded: any = await decodeProtobufObject(protobufBody(object, { goZeros: true }));
    expect(decoded.spec.versions[0].schema.openAPIV3Schema.properties.spec).toEqual(spec);
  });
});
