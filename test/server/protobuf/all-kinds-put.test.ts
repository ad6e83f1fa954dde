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
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { createAndReadOn, PROTOBUF, protobufBody } from './all-kinds-fixture.js';
import { FIXTURES, type Fixture } from './fixtures.js';

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

describe('PUT as protobuf', () => {
  it('updates a Deployment from a protobuf body carrying its resourceVersion', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'Deployment') as Fixture;
    const created = await createAndRead(fixture, 'put-pb', fixture.object('put-pb'));
    const changed = structuredClone(created);
    changed.spec.replicas = 5;
    changed.metadata.labels = { ...changed.metadata.labels, updated: 'yes' };
    delete changed.status;
    const put = await call(server, 'PUT', `${fixture.path}/put-pb?fieldManager=test`, {
      body: protobufBody(changed),
      headers: PROTOBUF,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec.replicas).toBe(5);
    expect(put.body.metadata.labels.updated).toBe('yes');
    expect(Number(put.body.metadata.resourceVersion)).toBeGreaterThan(
      Number(created.metadata.resourceVersion),
    );
  });

  it('scales a Deployment with the autoscaling/v1 Scale client-go UpdateScale sends', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'Deployment') as Fixture;
    await createAndRead(fixture, 'scale-pb', fixture.object('scale-pb'));
    const path = `${fixture.path}/scale-pb/scale`;
    const scale = (await call(server, 'GET', path)).body;
    expect(scale.kind).toBe('Scale');
    const put = await call(server, 'PUT', path, {
      body: protobufBody({ ...scale, spec: { replicas: 7 } }),
      headers: PROTOBUF,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.spec.replicas).toBe(7);
    expect((await call(server, 'GET', `${fixture.path}/scale-pb`)).body.spec.replicas).toBe(7);
  });

  it('writes a Pod status the way a kubelet does, from a protobuf body to /status', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'Pod') as Fixture;
    const created = await createAndRead(fixture, 'status-pb', fixture.object('status-pb'));
    const status = {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-02T03:04:05Z' },
      ],
      podIP: '10.244.1.7',
      podIPs: [{ ip: '10.244.1.7' }],
      startTime: '2026-01-02T03:04:00Z',
      containerStatuses: [
        {
          name: 'web',
          state: { running: { startedAt: '2026-01-02T03:04:02Z' } },
          lastState: {},
          ready: true,
          restartCount: 0,
          image: 'nginx:1.27',
          imageID: 'docker.io/library/nginx@sha256:abc',
          containerID: 'containerd://0123',
          started: true,
        },
      ],
      qosClass: 'Burstable',
    };
    const put = await call(server, 'PUT', `${fixture.path}/status-pb/status`, {
      body: protobufBody({ ...created, status }, { goZeros: true }),
      headers: PROTOBUF,
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.status).toMatchObject(status);
  });

  it('answers a stale resourceVersion in a protobuf body with 409', async () => {
    const fixture = FIXTURES.find((f) => f.object('x').kind === 'ConfigMap') as Fixture;
    const created = await createAndRead(fixture, 'stale-pb', fixture.object('stale-pb'));
    const first = await call(server, 'PUT', `${fixture.path}/stale-pb`, {
      body: protobufBody({ ...created, data: { a: '1' } }),
      headers: PROTOBUF,
    });
    expect(first.status, first.text).toBe(200);
    const stale = await call(server, 'PUT', `${fixture.path}/stale-pb`, {
      body: protobufBody({ ...created, data: { a: '2' } }),
      headers: PROTOBUF,
    });
    expect(stale.status).toBe(409);
  });
});
