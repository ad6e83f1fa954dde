/** What the three-way merge patch suites share: manifests as kubectl applies them, and the live objects. */
export type Obj = Record<string, unknown>;
export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** The manifest a user applies; `annotations: {}` as kubectl stores it in last-applied. */
export function manifest(replicas: number, image: string): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { annotations: {}, name: 'web', namespace: 'demo' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ image, name: 'c' }] } },
    },
  };
}

/** What kubectl diffs against: the manifest carrying its own last-applied annotation. */
export function withLastApplied(m: Obj): Obj {
  const copy = structuredClone(m);
  (copy.metadata as Obj).annotations = { [LAST_APPLIED]: JSON.stringify(m) + '\n' };
  return copy;
}

/** The live object after applying `m`: defaults and server fields added. */
export function live(m: Obj): Obj {
  const obj = withLastApplied(m) as Obj & { metadata: Obj; spec: Obj & { template: { spec: Obj } } };
  Object.assign(obj.metadata, {
    uid: 'u1',
    resourceVersion: '12',
    generation: 1,
    creationTimestamp: '2024-01-01T00:00:00Z',
  });
  Object.assign(obj.spec, {
    progressDeadlineSeconds: 600,
    revisionHistoryLimit: 10,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
  });
  Object.assign(obj.spec.template.spec, { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' });
  for (const c of obj.spec.template.spec.containers as Obj[]) {
    Object.assign(c, { imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log' });
  }
  obj.status = { replicas: 1, conditions: [{ type: 'Available', status: 'True' }] };
  return obj;
}

export type PodTemplateManifest = Obj & { metadata: Obj; spec: { template: { spec: Obj } } };

/** The manifest with these pod spec fields (containers, volumes, ...). */
export function withPodSpec(fields: Obj): PodTemplateManifest {
  const m = manifest(1, 'unused') as PodTemplateManifest;
  Object.assign(m.spec.template.spec, fields);
  return m;
}

/** `{spec: {template: {spec: podSpec}}}`: a patch touching the pod spec only. */
export function podSpecPatch(podSpec: Obj): Obj {
  return { spec: { template: { spec: podSpec } } };
}

/** The manifest with one container `c` of these fields. */
export function withContainer(fields: Obj): PodTemplateManifest {
  return withPodSpec({ containers: [{ name: 'c', ...fields }] });
}

/** The patch changing container `c` alone, which `$setElementOrder/containers` comes with. */
export function containerPatch(fields: Obj): Obj {
  return podSpecPatch({
    '$setElementOrder/containers': [{ name: 'c' }],
    containers: [{ name: 'c', ...fields }],
  });
}

export function podSpecOf(obj: unknown): { containers: Obj[] } & Obj {
  return (obj as PodTemplateManifest).spec.template.spec as { containers: Obj[] } & Obj;
}
