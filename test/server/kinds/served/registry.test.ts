import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src/protocol/events.js';
import { builtinResource } from '../../../../src/server/kinds/builtin-table.js';
import { BUILTIN_RESOURCES } from '../../../../src/server/kinds/discovery.generated.js';
import {
  findByKind,
  findByPlural,
  kindKey,
  REGISTRY,
  resolveResource,
} from '../../../../src/server/kinds/served/registry.js';
import { apiVersionOf, type TableColumn } from '../../../../src/server/kinds/types.js';
import { COLUMN_DOCS } from '../../../../src/server/openapi/column-docs.generated.js';
import { schemaNameOf } from '../../../../src/server/openapi/openapi-schemas.js';
import { API_TYPES } from '../../../../src/server/openapi/openapi-types.generated.js';

describe('REGISTRY', () => {
  it.each(REGISTRY.map((k) => [`${apiVersionOf(k)} ${k.plural}`, k] as const))(
    "%s has the reference's names, scope, subresources and Table columns",
    (_, k) => {
      const ref = builtinResource(k.group, k.version, k.plural);
      expect(ref, 'the reference serves it').toBeDefined();
      expect([k.kind, k.singular, k.namespaced, k.shortNames, k.categories]).toEqual([
        ref!.kind,
        ref!.singular,
        ref!.namespaced,
        ref!.shortNames,
        ref!.categories,
      ]);
      for (const sub of k.subresources) expect(ref!.subresources.map((s) => s.name)).toContain(sub);
      if (!ref!.columns) return;
      const columns = k.columnsIncludeName
        ? k.columns
        : [{ name: 'Name', type: 'string', priority: 0 } as Partial<TableColumn>, ...k.columns];
      expect(columns.map((c) => [c.name, c.type, c.priority])).toEqual(
        ref!.columns.map((c) => [c.name, c.type, c.priority]),
      );
      for (const [i, c] of columns.entries()) {
        const text = c.fieldDoc ? COLUMN_DOCS[c.fieldDoc.type]?.[c.fieldDoc.field] : c.description;
        if (text !== undefined) expect(text, c.name).toBe(ref!.columns[i]!.description);
      }
    },
  );

  /**
   * The resources the reference serves that no kind here serves yet (issue 41 brings them all):
   * this list only shrinks.
   */
  const NOT_YET = new Set<string>([
    // Served by crd/, not REGISTRY.
    'apiextensions.k8s.io/v1/customresourcedefinitions',
  ]);
  it('serves every resource the reference serves, but those not yet brought', () => {
    const served = new Set(REGISTRY.map((k) => `${k.group}/${k.version}/${k.plural}`));
    const missing = BUILTIN_RESOURCES.map((r) => `${r.group}/${r.version}/${r.plural}`).filter(
      (id) => !served.has(id) && !NOT_YET.has(id),
    );
    expect(missing).toEqual([]);
  });

  it.each(REGISTRY.map((k) => [`${apiVersionOf(k)} ${k.kind}`, k] as const))(
    '%s is found by plural, kind and every name',
    (_, k) => {
      expect(findByPlural(k.group, k.version, k.plural)).toBe(k);
      expect(findByKind(apiVersionOf(k), k.kind)).toBe(k);
      // A name several kinds answer to finds the first served: the group's preferred version
      // (autoscaling/v2 before v1), the core group before events.k8s.io.
      const sameKind = REGISTRY.find((x) => x.group === k.group && x.kind === k.kind);
      expect(findByKind(k.group, k.kind)).toBe(sameKind);
      const byName = (name: string) =>
        REGISTRY.find((x) =>
          [x.plural, x.singular, x.kind.toLowerCase(), ...x.shortNames].includes(name.toLowerCase()),
        );
      for (const name of [k.plural, k.singular, k.kind, ...k.shortNames])
        expect(resolveResource(name)).toBe(byName(name));
      const qualified = k.group ? `${k.plural}.${k.group}` : k.plural;
      expect(resolveResource(qualified.toUpperCase())).toBe(sameKind);
    },
  );

  it('misses what is not served', () => {
    expect(findByPlural('', 'v1', 'deployments')).toBeUndefined();
    expect(findByPlural('apps', 'v1beta1', 'deployments')).toBeUndefined();
    expect(findByKind('v1', 'Deployment')).toBeUndefined();
    expect(findByKind('apps/v2', 'Deployment')).toBeUndefined();
    expect(resolveResource('widgets')).toBeUndefined();
    expect(resolveResource('pods.apps')).toBeUndefined();
  });

  it('keys kinds by apiVersion and kind', () => {
    expect(REGISTRY.map(kindKey)).toContain('apps/v1/Deployment');
    expect(kindKey(findByPlural('', 'v1', 'pods')!)).toBe('v1/Pod');
    expect(new Set(REGISTRY.map(kindKey)).size).toBe(REGISTRY.length);
  });

  it('declares status and scale subresources as kube does', () => {
    const sub = Object.fromEntries(
      REGISTRY.filter((k) => k.group !== 'events.k8s.io').map((k) => [k.plural, k.subresources]),
    );
    expect(sub).toMatchObject({
      pods: [
        'status',
        'binding',
        'eviction',
        'log',
        'exec',
        'attach',
        'portforward',
        'proxy',
        'ephemeralcontainers',
        'resize',
      ],
      nodes: ['status', 'proxy'],
      namespaces: ['status', 'finalize'],
      services: ['status', 'proxy'],
      deployments: ['status', 'scale'],
      replicasets: ['status', 'scale'],
      statefulsets: ['status', 'scale'],
      daemonsets: ['status'],
      configmaps: [],
      secrets: [],
      events: [],
      leases: [],
    });
    for (const k of REGISTRY) {
      expect(k.scale !== undefined).toBe(k.subresources.includes('scale'));
    }
    expect(findByKind('apps/v1', 'Deployment')!.scale).toEqual({
      specReplicas: 'spec.replicas',
      statusReplicas: 'status.replicas',
      labelSelector: 'spec.selector',
      // deployment/storage/storage.go `replicasPathInDeployment`.
      replicasPathByVersion: {
        'apps/v1beta1': 'spec.replicas',
        'apps/v1beta2': 'spec.replicas',
        'apps/v1': 'spec.replicas',
      },
    });
  });

  it('bumps generation only for pods, pod templates, workloads and webhook configurations', () => {
    const withGeneration = REGISTRY.filter((k) => k.generationFields.length > 0).map((k) => k.kind);
    // The webhook configurations' strategy bumps it when `webhooks` change
    // (pkg/registry/admissionregistration/*webhookconfiguration/strategy.go `PrepareForUpdate`);
    // the pod strategy when the spec changes (pkg/registry/core/pod/strategy.go `updatePodGeneration`);
    // the pod template strategy when the template changes (pkg/registry/core/podtemplate/strategy.go).
    expect(withGeneration).toEqual(
      expect.arrayContaining([
        'Pod',
        'PodTemplate',
        'Deployment',
        'ReplicaSet',
        'StatefulSet',
        'DaemonSet',
        'ValidatingWebhookConfiguration',
        'MutatingWebhookConfiguration',
      ]),
    );
  });

  it('has a generated Go type for every kind, so that every write is type-checked (schema/)', () => {
    for (const k of REGISTRY) expect(API_TYPES[schemaNameOf(k)], k.kind).toBeDefined();
  });

  it('has no metadata.* field selectors (they are generic)', () => {
    for (const k of REGISTRY) {
      for (const f of Object.keys(k.fields)) expect(f.startsWith('metadata.')).toBe(false);
    }
  });
});

describe('field selectors', () => {
  const pods = findByKind('v1', 'Pod')!;
  const pod: KubeObject = {
    spec: {
      nodeName: 'n1',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      serviceAccountName: 'sa',
    },
    status: { phase: 'Running', podIPs: [{ ip: '10.0.0.7' }], nominatedNodeName: '' },
  };

  it('reads the pod fields kube supports, with "" for absent ones', () => {
    expect(Object.keys(pods.fields).sort()).toEqual([
      'spec.hostNetwork',
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'status.nominatedNodeName',
      'status.phase',
      'status.podIP',
    ]);
    const read = (f: string, o: KubeObject = pod) => pods.fields[f](o);
    expect(read('spec.nodeName')).toBe('n1');
    expect(read('spec.hostNetwork')).toBe('false');
    expect(read('spec.hostNetwork', { spec: { hostNetwork: true } })).toBe('true');
    expect(read('status.podIP')).toBe('10.0.0.7');
    expect(read('status.podIP', { status: { podIP: '10.0.0.8' } })).toBe('10.0.0.8');
    expect(read('spec.nodeName', {})).toBe('');
    expect(read('status.phase', { status: 'garbage' })).toBe('');
  });

  it('reads the event fields, with source falling back to reportingComponent', () => {
    const events = findByKind('v1', 'Event')!;
    const ev: KubeObject = {
      involvedObject: {
        kind: 'Pod',
        namespace: 'demo',
        name: 'p',
        uid: 'u1',
        apiVersion: 'v1',
        fieldPath: 'spec.containers{c}',
      },
      reason: 'Pulled',
      type: 'Normal',
      reportingComponent: 'kubelet',
    };
    expect(events.fields['involvedObject.kind'](ev)).toBe('Pod');
    expect(events.fields['involvedObject.fieldPath'](ev)).toBe('spec.containers{c}');
    expect(events.fields['involvedObject.resourceVersion'](ev)).toBe('');
    expect(events.fields.source(ev)).toBe('kubelet');
    expect(events.fields.source({ ...ev, source: { component: 'default-scheduler' } })).toBe(
      'default-scheduler',
    );
    expect(Object.keys(events.fields)).toHaveLength(11);
  });

  it('reads the other kinds fields', () => {
    expect(findByKind('v1', 'Secret')!.fields.type({ type: 'kubernetes.io/tls' })).toBe('kubernetes.io/tls');
    expect(findByKind('v1', 'Namespace')!.fields['status.phase']({ status: { phase: 'Active' } })).toBe(
      'Active',
    );
    expect(findByKind('v1', 'Node')!.fields['spec.unschedulable']({})).toBe('false');
    expect(findByKind('apps/v1', 'ReplicaSet')!.fields['status.replicas']({})).toBe('0');
    expect(findByKind('apps/v1', 'ReplicaSet')!.fields['status.replicas']({ status: { replicas: 3 } })).toBe(
      '3',
    );
    const svc = findByKind('v1', 'Service')!;
    expect(svc.fields['spec.clusterIP']({ spec: { clusterIP: 'None' } })).toBe('None');
    expect(svc.fields['spec.type']({ spec: { type: 'NodePort' } })).toBe('NodePort');
    expect(Object.keys(findByKind('apps/v1', 'Deployment')!.fields)).toEqual([]);
  });
});

describe('prepareForCreate', () => {
  it('gives a new namespace the kubernetes finalizer once', () => {
    const ns = findByKind('v1', 'Namespace')!;
    const obj: KubeObject = { metadata: { name: 'demo' } };
    ns.prepareForCreate!(obj);
    ns.prepareForCreate!(obj);
    expect(obj.spec).toEqual({ finalizers: ['kubernetes'] });
    const custom: KubeObject = { spec: { finalizers: ['example.com/x'] } };
    ns.prepareForCreate!(custom);
    expect(custom.spec).toEqual({ finalizers: ['example.com/x', 'kubernetes'] });
  });
});
