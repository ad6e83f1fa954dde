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
