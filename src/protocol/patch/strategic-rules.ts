/**
 * Which fields of which kinds merge in a strategic merge patch: the
 * `patchStrategy`/`patchMergeKey` struct tags of k8s.io/api, kept as a table
 * of field paths, and the lookups the patch, the three-way diff and the
 * OpenAPI schemas read it through.
 */

/** How one field patches, from its `patchStrategy`/`patchMergeKey` tags. */
export interface FieldPatchStrategy {
  /** The list merges instead of being replaced: by `mergeKey`, or as a set of primitives without one. */
  merge?: true;
  /** The element field that identifies a list element (`name` for containers). */
  mergeKey?: string;
  /** `retainKeys`: keys missing from a patch's `$retainKeys` are cleared (one-of unions like volume sources). */
  retainKeys?: true;
}

/** Field-path patterns (dotted, list elements transparent) to strategies. */
type Rules = Record<string, FieldPatchStrategy>;

const byKey = (mergeKey: string, retainKeys = false): FieldPatchStrategy =>
  retainKeys ? { merge: true, mergeKey, retainKeys: true } : { merge: true, mergeKey };
/** A merge list of primitives (set semantics), e.g. `metadata.finalizers`. */
const SET: FieldPatchStrategy = { merge: true };

/** Prefixes every pattern in `rules` with `prefix.`. */
function nest(prefix: string, rules: Rules): Rules {
  return Object.fromEntries(Object.entries(rules).map(([path, rule]) => [`${prefix}.${path}`, rule]));
}

const OBJECT_META: Rules = { finalizers: SET, ownerReferences: byKey('uid') };
const CONDITIONS: Rules = { conditions: byKey('type') };
/** core/v1 Container; EphemeralContainer carries the same tags. */
const CONTAINER: Rules = {
  ports: byKey('containerPort'),
  env: byKey('name'),
  volumeMounts: byKey('mountPath'),
  volumeDevices: byKey('devicePath'),
};
/** core/v1 PodSpec. `tolerations`, `readinessGates` and `resizePolicy` have no merge key: they are replaced. */
const POD_SPEC: Rules = {
  initContainers: byKey('name'),
  ...nest('initContainers', CONTAINER),
  containers: byKey('name'),
  ...nest('containers', CONTAINER),
  ephemeralContainers: byKey('name'),
  ...nest('ephemeralContainers', CONTAINER),
  volumes: byKey('name', true),
  imagePullSecrets: byKey('name'),
  hostAliases: byKey('ip'),
  topologySpreadConstraints: byKey('topologyKey'),
  resourceClaims: byKey('name', true),
  schedulingGates: byKey('name'),
};
const POD_STATUS: Rules = {
  ...CONDITIONS,
  podIPs: byKey('ip'),
  hostIPs: byKey('ip'),
  resourceClaimStatuses: byKey('name', true),
};
/** core/v1 PodTemplateSpec, shared by every workload kind. */
const POD_TEMPLATE: Rules = { ...nest('metadata', OBJECT_META), ...nest('spec', POD_SPEC) };
/** A workload: a pod template at spec.template and status conditions merged by type. */
const WORKLOAD: Rules = { ...nest('spec.template', POD_TEMPLATE), ...nest('status', CONDITIONS) };

/** A Validating- or MutatingWebhookConfiguration. */
const WEBHOOK_CONFIGURATION: Rules = { webhooks: byKey('name'), 'webhooks.matchConditions': byKey('name') };

/** Per-kind rules; every kind also gets ObjectMeta's at `metadata`. */
const KIND_RULES: Record<string, Rules> = {
  Pod: { ...nest('spec', POD_SPEC), ...nest('status', POD_STATUS) },
  Deployment: { ...WORKLOAD, 'spec.strategy': { retainKeys: true } },
  ReplicaSet: WORKLOAD,
  StatefulSet: WORKLOAD,
  DaemonSet: WORKLOAD,
  ReplicationController: WORKLOAD,
  Job: WORKLOAD,
  CronJob: {
    ...nest('spec.jobTemplate.metadata', OBJECT_META),
    ...nest('spec.jobTemplate.spec.template', POD_TEMPLATE),
  },
  PodTemplate: nest('template', POD_TEMPLATE),
  Service: { 'spec.ports': byKey('port'), ...nest('status', CONDITIONS) },
  Node: { 'spec.podCIDRs': SET, ...nest('status', CONDITIONS), 'status.addresses': byKey('type') },
  Namespace: nest('status', CONDITIONS),
  ConfigMap: {},
  Secret: {},
  Event: {},
  Lease: {},
  // core/v1 types.go: a ServiceAccount's `secrets` merge by name; `imagePullSecrets` is replaced.
  ServiceAccount: { secrets: byKey('name') },
  // admissionregistration/v1 types.go: `webhooks` and each webhook's `matchConditions` merge by name.
  ValidatingWebhookConfiguration: WEBHOOK_CONFIGURATION,
  MutatingWebhookConfiguration: WEBHOOK_CONFIGURATION,
};

/** Compiled lookup: kind -> JSON-encoded path -> strategy. JSON keys, since field names may contain dots. */
export type CompiledRules = ReadonlyMap<string, FieldPatchStrategy>;

const COMPILED = new Map<string, CompiledRules>(
  Object.entries(KIND_RULES).map(([kind, rules]) => [
    kind,
    new Map(
      Object.entries({ ...nest('metadata', OBJECT_META), ...rules }).map(([p, rule]) => [
        JSON.stringify(p.split('.')),
        rule,
      ]),
    ),
  ]),
);
/** Unknown kinds have no metadata: every list is replaced, as in JSON merge patch. */
const NO_RULES: CompiledRules = new Map();

/** The compiled rules of `kind`; none for kinds without strategic merge metadata. */
export function rulesFor(kind: string): CompiledRules {
  return COMPILED.get(kind) ?? NO_RULES;
}

/** The strategy of the field at `path` under `rules`. */
export function strategyAt(rules: CompiledRules, path: string[]): FieldPatchStrategy | undefined {
  return rules.size === 0 ? undefined : rules.get(JSON.stringify(path));
}

/** True when `kind` has built-in strategic merge metadata (others merge like JSON merge patch). */
export function isStrategicMergeKind(kind: string): boolean {
  return COMPILED.has(kind);
}

/** The patch strategy of the field at `path` (field names from the object root; list elements are transparent). */
export function fieldStrategyFor(kind: string, path: string[]): FieldPatchStrategy | undefined {
  return strategyAt(rulesFor(kind), path);
}

/** The patch merge key of the list at `path`, e.g. `name` for `['spec','template','spec','containers']`. */
export function mergeKeyFor(kind: string, path: string[]): string | undefined {
  return fieldStrategyFor(kind, path)?.mergeKey;
}
