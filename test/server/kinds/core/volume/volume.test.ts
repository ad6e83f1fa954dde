import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../src/protocol/events.js';
import { goDiff } from '../../../../../src/server/kinds/core/volume/go-diff.js';
import {
  defaultPersistentVolume,
  persistentVolumeKind,
  preparePersistentVolumeStatusUpdate,
  protectNewVolume,
  validatePersistentVolume,
  validatePersistentVolumeUpdate,
} from '../../../../../src/server/kinds/core/volume/persistentvolume.js';
import {
  defaultPersistentVolumeClaim,
  normalizeClaimDataSources,
  persistentVolumeClaimKind,
  validatePersistentVolumeClaim,
  validatePersistentVolumeClaimUpdate,
} from '../../../../../src/server/kinds/core/volume/persistentvolumeclaim.js';

const texts = (errors: Array<{ field: string; message: string }>) =>
  errors.map((e) => `${e.field}: ${e.message}`);
const cells = (k: { columns: Array<{ cell(o: KubeObject, now: number): unknown }> }, o: KubeObject) =>
  k.columns.map((c) => c.cell(o, Date.parse('2026-01-01T00:01:00Z')));

const claim = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject =>
  ({ metadata: { name: 'data', namespace: 'ns' }, spec, status }) as KubeObject;

describe('PersistentVolumeClaim', () => {
  it('defaults the volume mode and phase', () => {
    const o = { metadata: { name: 'c' }, spec: {} } as KubeObject;
    defaultPersistentVolumeClaim(o);
    expect(o).toMatchObject({ spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
  });

  it('validates access modes and the storage request', () => {
    expect(texts(validatePersistentVolumeClaim(claim({ resources: {} })))).toEqual([
      'spec.accessModes: Required value: at least 1 access mode is required',
      'spec.resources[storage]: Required value',
    ]);
    expect(
      texts(
        validatePersistentVolumeClaim(
          claim({
            accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'],
            resources: { requests: { storage: '0' } },
          }),
        ),
      ),
    ).toEqual([
      'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes',
      'spec.resources[storage]: Invalid value: "0": must be greater than zero',
    ]);
  });

  it('mirrors and drops data sources as the strategy does', () => {
    const spec: Record<string, unknown> = { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } };
    normalizeClaimDataSources(spec);
    expect(spec.dataSourceRef).toEqual({ kind: 'PersistentVolumeClaim', name: 'src' });
    const other: Record<string, unknown> = { dataSource: { kind: 'Thing', name: 'x' } };
    normalizeClaimDataSources(other);
    expect(other).toEqual({});
  });

  it('keeps a pending claim immutable, with the spec diff', () => {
    const old = claim({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      volumeMode: 'Filesystem',
    });
    const next = claim({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '2Gi' } },
      volumeMode: 'Filesystem',
    });
    const [e] = validatePersistentVolumeClaimUpdate(next, old);
    expect(e.field).toBe('spec');
    expect(e.message).toContain('@@ -6,7 +6,7 @@');
    expect(e.message).toContain('-   "storage": "1Gi"\n+   "storage": "2Gi"\n');
  });

  it('lets a bound claim grow but not shrink below its capacity', () => {
    const spec = (storage: string) => ({
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage } },
    });
    const old = claim(spec('2Gi'), { phase: 'Bound', capacity: { storage: '2Gi' } });
    expect(validatePersistentVolumeClaimUpdate(claim(spec('3Gi'), old.status as never), old)).toEqual([]);
    expect(texts(validatePersistentVolumeClaimUpdate(claim(spec('1Gi'), old.status as never), old))).toEqual([
      'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity',
    ]);
  });

  it('prints the volume, capacity and modes once bound', () => {
    const o = {
      metadata: { name: 'c', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { volumeName: 'pv', storageClassName: 'fast', volumeMode: 'Block' },
      status: {
        phase: 'Bound',
        capacity: { storage: '1Gi' },
        accessModes: ['ReadWriteMany', 'ReadWriteOnce'],
      },
    } as KubeObject;
    expect(cells(persistentVolumeClaimKind, o)).toEqual([
      'Bound',
      'pv',
      '1Gi',
      'RWO,RWX',
      'fast',
      '<unset>',
      '60s',
      'Block',
    ]);
  });
});

describe('PersistentVolume', () => {
  const pv = (spec: Record<string, unknown>) => ({ metadata: { name: 'pv' }, spec }) as KubeObject;

  it('defaults the policy, mode, phase and hostPath type', () => {
    const o = pv({ hostPath: { path: '/d' } });
    defaultPersistentVolume(o);
    expect(o).toMatchObject({
      spec: { persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem', hostPath: { type: '' } },
      status: { phase: 'Pending' },
    });
  });

  it('validates capacity, sources and the node affinity', () => {
    expect(texts(validatePersistentVolume(pv({})))).toEqual([
      'spec.accessModes: Required value',
      'spec.capacity: Required value',
      'spec.capacity: Unsupported value: null: supported values: "storage"',
      'spec: Required value: must specify a volume type',
    ]);
    expect(
      texts(
        validatePersistentVolume(
          pv({
            accessModes: ['ReadWriteOnce'],
            capacity: { storage: '1Gi' },
            local: { path: '/a/../b' },
          }),
        ),
      ),
    ).toEqual([
      `spec.local.path: Invalid value: "/a/../b": must not contain '..'`,
      'spec.nodeAffinity: Required value: Local volume requires node affinity',
    ]);
  });

  it('keeps the source immutable', () => {
    const old = pv({ nfs: { server: 's', path: '/a' } });
    const [e] = validatePersistentVolumeUpdate(pv({ nfs: { server: 's', path: '/b' } }), old);
    expect(e.field).toBe('spec.persistentvolumesource');
    expect(e.message).toContain('-  "Path": "/a",\n+  "Path": "/b",\n');
  });

  it('moves the phase transition time only with the phase', () => {
    const old = {
      status: { phase: 'Pending', lastPhaseTransitionTime: '2026-01-01T00:00:00Z' },
    } as KubeObject;
    const same = { status: { phase: 'Pending' } } as KubeObject;
    preparePersistentVolumeStatusUpdate(same, old);
    expect(same.status).toEqual(old.status);
    const moved = { status: { phase: 'Bound' } } as KubeObject;
    preparePersistentVolumeStatusUpdate(moved, old);
    expect((moved.status as { lastPhaseTransitionTime: string }).lastPhaseTransitionTime).not.toBe(
      '2026-01-01T00:00:00Z',
    );
  });

  it('gets the protection finalizer once', () => {
    const o = { metadata: { finalizers: ['kubernetes.io/pv-protection'] } } as KubeObject;
    protectNewVolume(o);
    expect(o.metadata?.finalizers).toEqual(['kubernetes.io/pv-protection']);
  });

  it('prints its claim, class and reason', () => {
    const o = {
      metadata: { name: 'pv', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        capacity: { storage: '5Gi' },
        accessModes: ['ReadWriteOncePod'],
        persistentVolumeReclaimPolicy: 'Retain',
        claimRef: { namespace: 'a', name: 'b' },
      },
      status: { phase: 'Bound', reason: 'x' },
    } as KubeObject;
    expect(cells(persistentVolumeKind, o)).toEqual([
      '5Gi',
      'RWOP',
      'Retain',
      'Bound',
      'a/b',
      '',
      '<unset>',
      'x',
      '60s',
      '<unset>',
    ]);
  });
});

describe('goDiff', () => {
  it('writes go-difflib hunks of indented JSON', () => {
    expect(goDiff({ A: 1, B: 'x' }, { A: 2, B: 'x' })).toBe(
      '@@ -1,4 +1,4 @@\n {\n- "A": 1,\n+ "A": 2,\n  "B": "x"\n }\n',
    );
  });
});
