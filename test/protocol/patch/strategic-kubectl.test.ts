import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { containers, liveDeployment, noDirectives, type Obj } from './strategic-fixture.js';

describe('applyStrategicMergePatch: kubectl bodies (kubectl-needs.md §5, §9)', () => {
  it('apply configure path: the exact body from §5', () => {
    const body = JSON.parse(
      '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{\\"x\\":1}\\n"}},"spec":{"replicas":2,"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"image":"nginx:1.1","name":"c"}]}}}}',
    );
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment') as Obj;
    const expected = liveDeployment();
    (expected.metadata as Obj).annotations = {
      'kubectl.kubernetes.io/last-applied-configuration': '{"x":1}\n',
    };
    (expected.spec as Obj).replicas = 2;
    containers(expected)[0].image = 'nginx:1.1';
    expect(result).toEqual(expected);
    expect(noDirectives(result)).toBe(true);
  });

  it('set image: the exact body kubectl set image sends', () => {
    const body = JSON.parse(
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"image":"nginx:2","name":"c"}]}}}}',
    );
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment');
    // Only c is named in the order list; d is server-only and keeps its place after c.
    expect(containers(result).map((c) => [c.name, c.image])).toEqual([
      ['c', 'nginx:2'],
      ['d', 'busybox'],
    ]);
    expect(containers(result)[0].env).toEqual(containers(liveDeployment())[0].env);
  });

  it('"labels":null and "env":null remove the whole field', () => {
    const body = {
      metadata: { labels: null },
      spec: { template: { spec: { containers: [{ name: 'c', env: null }] } } },
    };
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment') as Obj;
    expect((result.metadata as Obj).labels).toBeUndefined();
    expect('env' in containers(result)[0]).toBe(false);
    expect(containers(result)[0].image).toBe('nginx:1');
  });

  it('{"$patch":"delete","name":"d"} inside containers deletes that container', () => {
    const body = JSON.parse(
      '{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"c"}],"containers":[{"$patch":"delete","name":"d"}]}}}}',
    );
    const result = applyStrategicMergePatch(liveDeployment(), body, 'Deployment');
    expect(containers(result).map((c) => c.name)).toEqual(['c']);
    expect(noDirectives(result)).toBe(true);
  });

  it('scale and label bodies (merge-patch on the wire) mean the same as strategic patches', () => {
    const scaled = applyStrategicMergePatch(liveDeployment(), { spec: { replicas: 3 } }, 'Deployment') as Obj;
    expect((scaled.spec as Obj).replicas).toBe(3);
    const unlabeled = applyStrategicMergePatch(
      liveDeployment(),
      { metadata: { labels: { tier: null } } },
      'Deployment',
    );
    expect(((unlabeled as Obj).metadata as Obj).labels).toEqual({ app: 'web' });
  });
});
