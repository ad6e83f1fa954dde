/**
 * Addressing resources. A {@link ResourceType} names a kind the way the API
 * serves it; the built-in table covers the kinds watchmark's server serves, and
 * anything else can be described by hand, or is found by discovery (the
 * client's RESTMapper, client/restmapper/).
 */

/** A served resource type. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
}

/** The built-in kinds (the ones every cluster has, and watchmark's server serves). */
export const BUILTIN_RESOURCES: readonly ResourceType[] = [
  {
    group: '',
    version: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
  },
  { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true, shortNames: ['po'] },
  { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, shortNames: ['no'] },
  { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] },
  { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true, shortNames: ['svc'] },
  { group: '', version: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'] },
  { group: '', version: 'v1', kind: 'PodTemplate', plural: 'podtemplates', namespaced: true },
  {
    group: '',
    version: 'v1',
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    namespaced: true,
    shortNames: ['sa'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
  },
  {
    group: 'apps',
    version: 'v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
  },
  { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true },
  {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
  },
];

/** `apps/v1` or `v1`. */
export function apiVersionOf(t: Pick<ResourceType, 'group' | 'version'>): string {
  return t.group ? `${t.group}/${t.version}` : t.version;
}

/** Finds a built-in type by plural, singular kind, short name, or `plural.group` (kubectl's spellings). */
export function findBuiltin(name: string): ResourceType | undefined {
  const n = name.toLowerCase();
  return BUILTIN_RESOURCES.find(
    (t) =>
      t.plural === n ||
      t.kind.toLowerCase() === n ||
      (t.shortNames ?? []).includes(n) ||
      (t.group !== '' && (`${t.plural}.${t.group}` === n || `${t.kind.toLowerCase()}.${t.group}` === n)),
  );
}

/** Finds a built-in type by apiVersion and kind. */
export function builtinByKind(apiVersion: string, kind: string): ResourceType | undefined {
  return BUILTIN_RESOURCES.find((t) => apiVersionOf(t) === apiVersion && t.kind === kind);
}

/** The URL paths of one resource type in one namespace (or all). */
export class ResourcePath {
  readonly type: ResourceType;
  readonly namespace: string | undefined;

  constructor(type: ResourceType, namespace?: string) {
    this.type = type;
    this.namespace = type.namespaced ? namespace : undefined;
    // Refused here, where the bad input is given, not at every request.
    if (this.namespace) pathSegment(this.namespace, 'namespace');
  }

  /** `/api/v1/namespaces/NS/pods`, `/apis/apps/v1/deployments` (all namespaces), ... */
  get collectionPath(): string {
    const root = this.type.group
      ? `/apis/${this.type.group}/${this.type.version}`
      : `/api/${this.type.version}`;
    const ns = this.namespace ? `/namespaces/${encodeURIComponent(this.namespace)}` : '';
    return `${root}${ns}/${this.type.plural}`;
  }

  /** The path of one object, optionally a subresource. */
  objectPath(name: string, subresource?: string): string {
    if (this.type.namespaced && !this.namespace) {
      throw new Error(`${this.type.plural} "${name}": a namespace is needed to address one object`);
    }
    return `${this.collectionPath}/${pathSegment(name, 'resource name')}${subresource ? `/${subresource}` : ''}`;
  }
}

/**
 * A name as one path segment, refused as client-go refuses it
 * (`IsValidPathSegmentName`): empty, "." and ".." would address another
 * path once resolved (`DELETE .../pods/..` is a DELETE of the namespace);
 * "/" and "%" are percent-encoded, so they cannot.
 */
function pathSegment(name: string, what: 'namespace' | 'resource name'): string {
  if (name === '') throw new Error(`${what} may not be empty`);
  if (name === '.' || name === '..') throw new Error(`invalid ${what} "${name}": may not be '${name}'`);
  return encodeURIComponent(name);
}
