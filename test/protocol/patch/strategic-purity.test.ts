import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { containers, liveDeployment, type Obj, podSpec } from './strategic-fixture.js';

describe('applyStrategicMergePatch: purity', () => {
  it('never changes its inputs and shares no structure with them', () => {
    const target = liveDeployment();
    const patch = JSON.parse(
      '{"metadata":{"labels":null,"finalizers":["c"]},"spec":{"replicas":5,"template":{"spec":{"$setElementOrder/containers":[{"name":"d"},{"name":"c"}],"containers":[{"$patch":"delete","name":"c"},{"name":"d","env":[{"name":"X","value":"1"}]}],"volumes":[{"name":"w","emptyDir":{}}]}}}}',
    );
    const [t0, p0] = [structuredClone(target), structuredClone(patch)];
    const result = applyStrategicMergePatch(target, patch, 'Deployment') as Obj;
    expect(target).toEqual(t0);
    expect(patch).toEqual(p0);
    expect(containers(result).map((c) => c.name)).toEqual(['d']);
    expect(containers(result)[0].env).not.toBe(containers(patch)[1].env);
    expect(result.status).not.toBe(target.status);
    expect(podSpec(result).tolerations).not.toBe(podSpec(target).tolerations);
  });
});
