/**
 * What a Website should make exist, as pure functions: the Deployment, the
 * registry entry and the status. The controller (controller.ts) compares
 * these with what is there and writes the difference.
 */
import {
  API_VERSION,
  type Condition,
  type ConfigMap,
  type Deployment,
  KIND,
  type OwnerReference,
  WEBSITE_LABEL,
  type Website,
  type WebsiteStatus,
} from './types.js';

const DEFAULT_IMAGE = 'nginx:1.27';

/** The controller reference a Website puts on its Deployment: garbage collection deletes it with the Website. */
export function ownerReferenceTo(w: Website): OwnerReference {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    name: w.metadata.name ?? '',
    uid: w.metadata.uid ?? '',
    controller: true,
    // Foreground deletion of the Website waits for the Deployment to go.
    blockOwnerDeletion: true,
  };
}

/** The Deployment reference that is a controller reference (at most one, by the API's validation). */
export function controllerOf(o: {
  metadata: { ownerReferences?: OwnerReference[] };
}): OwnerReference | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller === true);
}

function labelsFor(w: Website): Record<string, string> {
  return { 'app.kubernetes.io/name': 'website', [WEBSITE_LABEL]: w.metadata.name ?? '' };
}

/** The Deployment a Website wants (same name and namespace). */
export function desiredDeployment(w: Website): Deployment {
  const labels = labelsFor(w);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: w.metadata.name,
      namespace: w.metadata.namespace,
      labels,
      ownerReferences: [ownerReferenceTo(w)],
    },
    spec: {
      replicas: w.spec.replicas ?? 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'web',
              image: w.spec.image ?? DEFAULT_IMAGE,
              env: [{ name: 'WEBSITE_HOST', value: w.spec.host }],
              ports: [{ containerPort: 80, name: 'http' }],
            },
          ],
        },
      },
    },
  };
}

/**
 * `existing` with the Website's wishes applied (replicas, image, host), or
 * undefined when it already has them. Fields the server defaulted are kept:
 * a PUT of the desired object alone would fight the defaulting forever.
 */
export function deploymentUpdate(w: Website, existing: Deployment): Deployment | undefined {
  const want = desiredDeployment(w);
  const wantContainer = want.spec?.template?.spec?.containers?.[0];
  const containers = existing.spec?.template?.spec?.containers ?? [];
  const web = containers.find((c) => c.name === 'web');
  const env = web?.env as Array<{ name: string; value?: string }> | undefined;
  const same =
    existing.spec?.replicas === want.spec?.replicas &&
    web?.image === wantContainer?.image &&
    env?.find((e) => e.name === 'WEBSITE_HOST')?.value === w.spec.host;
  if (same) return undefined;
  const next = structuredClone(existing);
  next.spec = next.spec ?? {};
  next.spec.replicas = want.spec?.replicas;
  const nextContainers = next.spec.template?.spec?.containers ?? [];
  const at = nextContainers.findIndex((c) => c.name === 'web');
  const merged = { ...(at >= 0 ? nextContainers[at] : {}), ...wantContainer, name: 'web' };
  if (at >= 0) nextContainers[at] = merged;
  else nextContainers.push(merged);
  next.spec.template = {
    ...next.spec.template,
    spec: { ...next.spec.template?.spec, containers: nextContainers },
  };
  return next;
}

/** The registry entry (in the operator's own namespace) recording a Website. */
export function registryEntry(w: Website, registryNamespace: string): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: registryName(w.metadata.namespace ?? '', w.metadata.name ?? ''),
      namespace: registryNamespace,
      labels: { [WEBSITE_LABEL]: w.metadata.name ?? '' },
    },
    data: { namespace: w.metadata.namespace ?? '', name: w.metadata.name ?? '', host: w.spec.host },
  };
}

/** `<namespace>.<name>`: a valid ConfigMap name (both are DNS labels or subdomains) that cannot collide. */
export function registryName(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/**
 * The status the Website should show: the generation seen, the Deployment's
 * ready replicas and a Ready condition whose lastTransitionTime moves only
 * when its status does (meta.SetStatusCondition's rule).
 */
export function desiredStatus(
  w: Website,
  d: Deployment | undefined,
  problem: { reason: string; message: string } | undefined,
  now: () => Date,
): WebsiteStatus {
  const generation = w.metadata.generation;
  const want = w.spec.replicas ?? 1;
  const ready = d?.status?.readyReplicas ?? 0;
  let condition: Omit<Condition, 'lastTransitionTime'>;
  if (problem) condition = { type: 'Ready', status: 'False', ...problem };
  else if (ready >= want)
    condition = {
      type: 'Ready',
      status: 'True',
      reason: 'DeploymentReady',
      message: `${ready}/${want} replicas ready`,
    };
  else
    condition = {
      type: 'Ready',
      status: 'False',
      reason: 'DeploymentNotReady',
      message: `${ready}/${want} replicas ready`,
    };
  const previous = w.status?.conditions?.find((c) => c.type === 'Ready');
  const lastTransitionTime =
    previous && previous.status === condition.status
      ? previous.lastTransitionTime
      : now()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z');
  const others = (w.status?.conditions ?? []).filter((c) => c.type !== 'Ready');
  return {
    observedGeneration: generation,
    readyReplicas: ready,
    conditions: [...others, { ...condition, observedGeneration: generation, lastTransitionTime }],
  };
}

/** Whether two statuses say the same (lastTransitionTime included: it only moves with a status change). */
export function sameStatus(a: WebsiteStatus | undefined, b: WebsiteStatus): boolean {
  return JSON.stringify(normalize(a)) === JSON.stringify(normalize(b));
}

function normalize(s: WebsiteStatus | undefined) {
  return {
    observedGeneration: s?.observedGeneration,
    readyReplicas: s?.readyReplicas ?? 0,
    conditions: (s?.conditions ?? []).map((c) => [
      c.type,
      c.status,
      c.reason,
      c.message,
      c.observedGeneration,
      c.lastTransitionTime,
    ]),
  };
}
