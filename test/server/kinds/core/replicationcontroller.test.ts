import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  defaultReplicationController,
  replicationControllerKind,
  validateReplicationController,
  validateReplicationControllerStatus,
} from '../../../../src/server/kinds/core/replicationcontroller.js';

const template = {
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
};

describe('ReplicationController', () => {
  it('takes its selector and labels from the template, with 1 replica', () => {
    const obj: KubeObject = { metadata: { name: 'rc' }, spec: { template: structuredClone(template) } };
    defaultReplicationController(obj);
    expect(obj.metadata?.labels).toEqual({ app: 'web' });
    expect(obj.spec).toMatchObject({ selector: { app: 'web' }, replicas: 1 });
    expect(obj.status).toEqual({ replicas: 0 });
    expect(validateReplicationController(obj)).toEqual([]);
  });

  it('orders the declarative errors last and requires a template', () => {
    const obj: KubeObject = { metadata: { name: 'rc' }, spec: { replicas: -1, selector: { app: 'web' } } };
    expect(validateReplicationController(obj).map((e) => e.field)).toEqual([
      'spec.template',
      'spec.replicas',
    ]);
  });

  it('checks status counts and prints the selector', () => {
    const errs = validateReplicationControllerStatus({ status: { replicas: 1, readyReplicas: 2 } });
    expect(errs.map((e) => e.message)).toEqual(['Invalid value: 2: cannot be greater than status.replicas']);
    const selector = replicationControllerKind.columns.find((c) => c.name === 'Selector');
    expect(selector?.cell({ spec: { selector: { b: '2', a: '1' } } }, 0)).toBe('a=1,b=2');
  });
});
