import { describe, expect, it } from 'vitest';
import {
  fieldStrategyFor,
  isStrategicMergeKind,
  mergeKeyFor,
} from '../../../src/protocol/patch/strategic.js';

describe('merge-key table', () => {
  it.each([
    ['Deployment', 'spec.template.spec.containers', 'name'],
    ['StatefulSet', 'spec.template.spec.initContainers.env', 'name'],
    ['DaemonSet', 'spec.template.spec.containers.ports', 'containerPort'],
    ['ReplicaSet', 'spec.template.spec.ephemeralContainers.volumeMounts', 'mountPath'],
    ['Pod', 'spec.containers.volumeDevices', 'devicePath'],
    ['Pod', 'spec.volumes', 'name'],
    ['Pod', 'spec.imagePullSecrets', 'name'],
    ['Pod', 'spec.hostAliases', 'ip'],
    ['Pod', 'spec.topologySpreadConstraints', 'topologyKey'],
    ['Pod', 'spec.resourceClaims', 'name'],
    ['Pod', 'status.conditions', 'type'],
    ['Pod', 'status.podIPs', 'ip'],
    ['Deployment', 'status.conditions', 'type'],
    ['Node', 'status.addresses', 'type'],
    ['Service', 'spec.ports', 'port'],
    ['Secret', 'metadata.ownerReferences', 'uid'],
    ['Deployment', 'spec.template.metadata.ownerReferences', 'uid'],
    ['CronJob', 'spec.jobTemplate.spec.template.spec.containers', 'name'],
    ['Pod', 'spec.tolerations', undefined],
    ['Pod', 'metadata.finalizers', undefined],
    ['Deployment', 'spec.containers', undefined],
    ['Widget', 'spec.template.spec.containers', undefined],
  ])('%s %s -> %s', (kind, path, key) => {
    expect(mergeKeyFor(kind, path.split('.'))).toBe(key);
  });

  it('describes set lists and retainKeys fields', () => {
    expect(fieldStrategyFor('Pod', ['metadata', 'finalizers'])).toEqual({ merge: true });
    expect(fieldStrategyFor('Node', ['spec', 'podCIDRs'])).toEqual({ merge: true });
    expect(fieldStrategyFor('Deployment', ['spec', 'strategy'])).toEqual({ retainKeys: true });
    expect(fieldStrategyFor('Pod', ['spec', 'volumes'])?.retainKeys).toBe(true);
    expect(fieldStrategyFor('Pod', ['spec.containers'])).toBeUndefined();
    expect(isStrategicMergeKind('Lease')).toBe(true);
    expect(isStrategicMergeKind('Widget')).toBe(false);
  });
});
