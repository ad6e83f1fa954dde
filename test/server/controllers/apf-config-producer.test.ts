/**
 * The APF configuration producer after start: a deleted bootstrap FlowSchema or priority level is
 * back at the next minute of the server's clock, its Dangling condition with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/process/index.js';
import { ManualClock } from '../../../src/protocol/clock.js';
import { APF_ENSURE_PERIOD_MS } from '../../../src/server/controllers/apf-config-producer.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';
const PL = '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations';

describe('the APF configuration producer', () => {
  const clock = new ManualClock(Date.now());
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('puts a deleted mandatory schema and level back at its next period', async () => {
    const before = (await call(server, 'GET', `${FS}/exempt`)).body;
    expect((await call(server, 'DELETE', `${FS}/exempt`)).status).toBe(200);
    expect((await call(server, 'DELETE', `${PL}/exempt`)).status).toBe(200);
    // The producer runs on the manual clock's timer alone: before its period nothing can put them back.
    clock.advance(APF_ENSURE_PERIOD_MS - 1000);
    expect((await call(server, 'GET', `${FS}/exempt`)).status).toBe(404);
    clock.advance(1000);
    await waitUntil(async () => (await call(server, 'GET', `${FS}/exempt`)).status === 200, 'exempt back');
    await waitUntil(async () => (await call(server, 'GET', `${PL}/exempt`)).status === 200, 'its level back');
    const after = (await call(server, 'GET', `${FS}/exempt`)).body;
    expect(after.metadata.uid).not.toBe(before.metadata.uid);
    expect(after.spec).toEqual(before.spec);
    expect(after.status.conditions).toMatchObject([{ type: 'Dangling', status: 'False', reason: 'Found' }]);
  });
});

describe('the APF configuration producer revising what is there (ensurer/strategy.go)', () => {
  const clock = new ManualClock(Date.now());
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(async () => {
    await server?.close();
  });

  const merge = (path: string, body: unknown) =>
    call(server, 'PATCH', path, { body, headers: { 'content-type': 'application/merge-patch+json' } });

  it('puts back changed specs it auto-updates, keeps those it may not, and removes unwanted objects', async () => {
    const suggested = (await call(server, 'GET', `${PL}/workload-low`)).body;
    // A suggested level that still auto-updates, one told not to, and the mandatory exempt schema
    // told not to (it is put back all the same, and its annotation with it).
    expect(
      (await merge(`${PL}/workload-low`, { spec: { limited: { nominalConcurrencyShares: 7 } } })).status,
    ).toBe(200);
    expect(
      (
        await merge(`${PL}/workload-high`, {
          metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } },
          spec: { limited: { nominalConcurrencyShares: 9 } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await merge(`${FS}/exempt`, {
          metadata: { annotations: { 'apf.kubernetes.io/autoupdate-spec': 'false' } },
          spec: { matchingPrecedence: 3 },
        })
      ).status,
    ).toBe(200);
    // A user's schemas: one claiming to auto-update (an older release's bootstrap object, for the
    // ensurer) and one without the annotation.
    const schema = (name: string, annotations?: Record<string, string>) =>
      call(server, 'POST', FS, {
        body: {
          metadata: { name, annotations },
          spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 },
        },
      });
    expect((await schema('old-bootstrap', { 'apf.kubernetes.io/autoupdate-spec': 'true' })).status).toBe(201);
    expect((await schema('mine')).status).toBe(201);

    clock.advance(APF_ENSURE_PERIOD_MS);
    await waitUntil(
      async () => (await call(server, 'GET', `${FS}/old-bootstrap`)).status === 404,
      'the unwanted schema removed',
    );
    // The removal comes after every revision of the same round.
    const low = (await call(server, 'GET', `${PL}/workload-low`)).body;
    expect(low.spec).toEqual(suggested.spec);
    expect(low.metadata.managedFields.at(-1)).toMatchObject({
      manager: 'api-priority-and-fairness-config-producer-v1',
      operation: 'Update',
    });
    const high = (await call(server, 'GET', `${PL}/workload-high`)).body;
    expect(high.spec.limited.nominalConcurrencyShares).toBe(9);
    expect(high.metadata.annotations['apf.kubernetes.io/autoupdate-spec']).toBe('false');
    const exempt = (await call(server, 'GET', `${FS}/exempt`)).body;
    expect(exempt.spec.matchingPrecedence).toBe(1);
    expect(exempt.metadata.annotations['apf.kubernetes.io/autoupdate-spec']).toBe('true');
    expect((await call(server, 'GET', `${FS}/mine`)).status).toBe(200);
  });
});
