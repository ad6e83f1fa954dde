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
import { decodeProtobufDeleteOptions, decodeProtobufObject } from '../../../src/server/http/protobuf-body.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { PROTOBUF, protobufBody } from './all-kinds-fixture.js';
import { FIXTURES, type Fixture } from './fixtures.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startTestServer();
  await ensureNamespace(server, 'pb');
});

afterAll(async () => {
  await server.close();
});

describe('DeleteOptions as protobuf', () => {
  it('decodes the DeleteOptions client-go sends with a DELETE', async () => {
    const options = {
      kind: 'DeleteOptions',
      apiVersion: 'apps/v1',
      gracePeriodSeconds: 0,
      preconditions: { uid: 'abc', resourceVersion: '12' },
      propagationPolicy: 'Foreground',
      dryRun: ['All'],
    };
    expect(await decodeProtobufObject(protobufBody(options))).toEqual(options);
    expect(await decodeProtobufDeleteOptions(protobufBody(options, { goZeros: true }))).toEqual(options);
  });

  it('a DELETE with a protobuf DeleteOptions body deletes as it says (foreground, preconditions)', async () => {
    const path = '/api/v1/namespaces/default/configmaps';
    const made = await call(server, 'POST', path, { body: { metadata: { name: 'pb-delete' } } });
    expect(made.status, made.text).toBe(201);
    const wrongUid = { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-it' } };
    const refused = await call(server, 'DELETE', `${path}/pb-delete`, {
      body: protobufBody(wrongUid, { goZeros: true }),
      headers: PROTOBUF,
    });
    expect(refused.status, refused.text).toBe(409);
    const options = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid: made.body.metadata.uid },
      propagationPolicy: 'Foreground',
    };
    const deleted = await call(server, 'DELETE', `${path}/pb-delete`, {
      body: protobufBody(options, { goZeros: true }),
      headers: PROTOBUF,
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.metadata.finalizers).toEqual(['foregroundDeletion']);
  });

  it('400s another kind where DeleteOptions are expected', async () => {
    const configMap = FIXTURES.find((f) => f.object('x').kind === 'ConfigMap') as Fixture;
    await expect(decodeProtobufDeleteOptions(protobufBody(configMap.object('c')))).rejects.toMatchObject({
      code: 400,
      message: 'decoded object cannot be converted to DeleteOptions',
    });
  });
});
