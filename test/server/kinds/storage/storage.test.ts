import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import {
  csiDriverKind,
  defaultCSIDriver,
  prepareCSIDriverUpdate,
} from '../../../../src/server/kinds/storage/csidriver.js';
import { validateCSINodeUpdate } from '../../../../src/server/kinds/storage/csinode.js';
import {
  defaultStorageClass,
  storageClassKind,
  validateStorageClass,
  validateStorageClassUpdate,
} from '../../../../src/server/kinds/storage/storageclass.js';
import { volumeAttributesClassKind } from '../../../../src/server/kinds/storage/volumeattributesclass.js';

const texts = (errors: Array<{ field: string; message: string }>) =>
  errors.map((e) => `${e.field}: ${e.message}`);
const NOW = Date.parse('2026-01-01T00:01:00Z');
const cells = (k: { columns: Array<{ cell(o: KubeObject, now: number): unknown }> }, o: KubeObject) =>
  k.columns.map((c) => c.cell(o, NOW));

describe('StorageClass', () => {
  it('defaults the reclaim policy and binding mode', () => {
    const o = { metadata: { name: 'fast' }, provisioner: 'csi.example.com' } as KubeObject;
    defaultStorageClass(o);
    expect(o).toMatchObject({ reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
    expect(validateStorageClass(o)).toEqual([]);
    expect(
      cells(storageClassKind, { ...o, metadata: { creationTimestamp: '2026-01-01T00:00:00Z' } }),
    ).toEqual(['csi.example.com', 'Delete', 'Immediate', false, '60s']);
  });

  it('reports immutable fields as declarative validation does', () => {
    const old = { provisioner: 'a', parameters: { x: '1' }, reclaimPolicy: 'Delete' } as KubeObject;
    const next = { provisioner: 'b', parameters: { x: '2' }, reclaimPolicy: 'Delete' } as KubeObject;
    expect(texts(validateStorageClassUpdate(next, old))).toEqual([
      'provisioner: Invalid value: null: field is immutable',
      'parameters: Invalid value: null: field is immutable',
    ]);
  });
});

describe('CSIDriver', () => {
  it('defaults its spec and bumps the generation on a spec change', () => {
    const o = { metadata: { name: 'd' }, spec: {} } as KubeObject;
    defaultCSIDriver(o);
    expect(o.spec).toEqual({
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
      preventPodSchedulingIfMissing: false,
    });
    const next = {
      metadata: { name: 'd' },
      spec: { ...(o.spec as object), podInfoOnMount: true },
    } as KubeObject;
    prepareCSIDriverUpdate(next, o);
    expect(next.metadata?.generation).toBe(1);
    expect(cells(csiDriverKind, next).slice(0, 6)).toEqual([
      true,
      true,
      false,
      '<unset>',
      false,
      'Persistent',
    ]);
  });
});

describe('CSINode and VolumeAttributesClass', () => {
  it('keeps a driver but its allocatable count', () => {
    const driver = (nodeID: string, count: number) => ({
      spec: { drivers: [{ name: 'd', nodeID, allocatable: { count } }] },
    });
    expect(validateCSINodeUpdate(driver('n', 2) as KubeObject, driver('n', 1) as KubeObject)).toEqual([]);
    expect(texts(validateCSINodeUpdate(driver('m', 1) as KubeObject, driver('n', 1) as KubeObject))).toEqual([
      'spec.drivers: Invalid value: {"Name":"d","NodeID":"m","TopologyKeys":null,"Allocatable":null}: field is immutable',
    ]);
  });

  it('gives a new class the protection finalizer', () => {
    const o = { metadata: { name: 'gold' } } as KubeObject;
    volumeAttributesClassKind.admitCreate?.(o);
    expect(o.metadata?.finalizers).toEqual(['kubernetes.io/vac-protection']);
  });
});
