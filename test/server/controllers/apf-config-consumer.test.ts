/**
 * The APF configuration consumer's Dangling condition on FlowSchemas (the generated FlowSchema
 * fidelity cases compare it with the reference's): True while the named priority level is
 * missing, False once it exists, applied as api-priority-and-fairness-config-consumer-v1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../../src/process/index.js';
import {
  APF_CONSUMER,
  danglingCondition,
  withDangling,
} from '../../../src/server/controllers/apf-config-consumer.js';
import type { RunningServer } from '../../../src/server/index.js';
import { call, startTestServer } from '../../helpers/server.js';

const FS = '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas';
const PL = '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations';

describe('danglingCondition and withDangling', () => {
  it('words the condition as presyncFlowSchemaStatus', () => {
    expect(danglingCondition('x', false)).toEqual({
      type: 'Dangling',
      status: 'True',
      reason: 'NotFound',
      message:
        'This FlowSchema references the PriorityLevelConfiguration object named "x" but there is no such object',
    });
    expect(danglingCondition('x', true).message).toBe(
      'This FlowSchema references the PriorityLevelConfiguration object named "x" and it exists',
    );
  });
  it('replaces the condition in place and sorts the consumer entry as the field manager does', () => {
    const fs = {
      metadata: {
        managedFields: [{ manager: 'kubectl', operation: 'Update', time: '2026-01-01T00:00:00Z' }],
      },
      status: { conditions: [{ type: 'Other' }, { type: 'Dangling', status: 'True' }] },
    };
    const next = withDangling(fs, danglingCondition('x', true), Date.parse('2026-01-01T00:00:05.5Z'));
    expect((next.status as { conditions: unknown[] }).conditions).toEqual([
      { type: 'Other' },
      {
        type: 'Dangling',
        status: 'False',
        lastTransitionTime: '2026-01-01T00:00:05Z',
        reason: 'Found',
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" and it exists',
      },
    ]);
    expect(
      (next.metadata?.managedFields as Array<{ manager: string }> | undefined)?.map((e) => e.manager),
    ).toEqual([APF_CONSUMER, 'kubectl']);
  });
});

describe('the APF configuration consumer', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const dangling = async (name: string) =>
    (await call(server, 'GET', `${FS}/${name}`)).body.status?.conditions?.find(
      (c: { type: string }) => c.type === 'Dangling',
    );

  it('marks a schema whose level is missing, then found, then missing again', async () => {
    const created = await call(server, 'POST', FS, {
      body: {
        metadata: { name: 'mine' },
        spec: { priorityLevelConfiguration: { name: 'my-level' }, matchingPrecedence: 5000 },
      },
    });
    expect(created.status).toBe(201);
    await waitUntil(async () => (await dangling('mine'))?.status === 'True', 'Dangling True');
    const fs = (await call(server, 'GET', `${FS}/mine`)).body;
    expect(
      fs.metadata.managedFields.map((e: { manager: string; operation: string; subresource?: string }) => [
        e.manager,
        e.operation,
        e.subresource,
      ]),
    ).toEqual([
      [APF_CONSUMER, 'Apply', 'status'],
      [expect.any(String), 'Update', undefined],
    ]);
    await call(server, 'POST', PL, {
      body: {
        metadata: { name: 'my-level' },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } },
        },
      },
    });
    await waitUntil(async () => (await dangling('mine'))?.reason === 'Found', 'Dangling Found');
    await call(server, 'DELETE', `${PL}/my-level`);
    await waitUntil(async () => (await dangling('mine'))?.reason === 'NotFound', 'Dangling NotFound again');
  });

  it('leaves the bootstrap schemas as written at start', async () => {
    const before = (await call(server, 'GET', `${FS}/exempt`)).body;
    expect((await dangling('exempt'))?.reason).toBe('Found');
    // A positive barrier: a schema written after start gets its condition, so the consumer has
    // worked through its queue since (and would have rewritten exempt's status by then).
    await call(server, 'POST', FS, {
      body: { metadata: { name: 'barrier' }, spec: { priorityLevelConfiguration: { name: 'exempt' } } },
    });
    await waitUntil(async () => (await dangling('barrier'))?.reason === 'Found', 'the barrier schema marked');
    expect((await call(server, 'GET', `${FS}/exempt`)).body.metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
  });
});
