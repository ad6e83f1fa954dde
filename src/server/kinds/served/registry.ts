/**
 * The built-in kinds every server serves, group by group, and the lookups the server uses to
 * find one. Each group's folder lists its kinds (its index.ts); this is the one place that
 * lists the groups, in discovery order. A new group is a folder beside core/ and apps/ and
 * one line here; a new kind of a served group is a file (or folder) in its group and one line
 * in the group's list.
 */

import { admissionRegistrationKinds } from '../admissionregistration/index.js';
import { apiRegistrationKinds } from '../apiregistration/index.js';
import { appsKinds } from '../apps/index.js';
import { authenticationKinds } from '../authentication/index.js';
import { authorizationKinds } from '../authorization/index.js';
import { autoscalingKinds } from '../autoscaling/index.js';
import { batchKinds } from '../batch/index.js';
import { certificatesKinds } from '../certificates/index.js';
import { coordinationKinds } from '../coordination/index.js';
import { coreKinds } from '../core/index.js';
import { discoveryKinds } from '../discovery/index.js';
import { eventsKinds } from '../events/index.js';
import { flowcontrolKinds } from '../flowcontrol/index.js';
import { networkingKinds } from '../networking/index.js';
import { nodeKinds } from '../node/index.js';
import { policyKinds } from '../policy/index.js';
import { rbacKinds } from '../rbac/index.js';
import { resourceKinds } from '../resource/index.js';
import { schedulingKinds } from '../scheduling/index.js';
import { storageKinds } from '../storage/index.js';
import { storageMigrationKinds } from '../storagemigration/index.js';
import { apiVersionOf, type ResourceKind } from '../types.js';

/** Every built-in kind (discovery orders them by the reference's group order, openapi/discovery.ts). */
export const REGISTRY: ResourceKind[] = [
  ...coreKinds,
  ...appsKinds,
  ...coordinationKinds,
  ...admissionRegistrationKinds,
  ...apiRegistrationKinds,
  ...eventsKinds,
  ...authenticationKinds,
  ...authorizationKinds,
  ...autoscalingKinds,
  ...batchKinds,
  ...certificatesKinds,
  ...networkingKinds,
  ...policyKinds,
  ...rbacKinds,
  ...storageKinds,
  ...schedulingKinds,
  ...nodeKinds,
  ...discoveryKinds,
  ...resourceKinds,
  ...flowcontrolKinds,
  ...storageMigrationKinds,
];

/** A kind's identity as `<apiVersion>/<Kind>`: `v1/Pod`, `apps/v1/Deployment`. */
export function kindKey(k: Pick<ResourceKind, 'group' | 'version' | 'kind'>): string {
  return `${apiVersionOf(k)}/${k.kind}`;
}

const byPlural = new Map(REGISTRY.map((k) => [`${k.group}/${k.version}/${k.plural}`, k]));
const byKindKey = new Map(REGISTRY.map((k) => [kindKey(k), k]));

/** The kind served at `/apis/<group>/<version>/<plural>` (`group` "" for `/api/v1`). */
export function findByPlural(group: string, version: string, plural: string): ResourceKind | undefined {
  return byPlural.get(`${group}/${version}/${plural}`);
}

const CORE_VERSION_RE = /^v\d+((alpha|beta)\d+)?$/;

/**
 * The kind `kind` of an apiVersion (`apps/v1`, `v1`) or of a group (`apps`,
 * "" for core) in any served version.
 */
export function findByKind(groupOrApiVersion: string, kind: string): ResourceKind | undefined {
  if (groupOrApiVersion.includes('/') || CORE_VERSION_RE.test(groupOrApiVersion)) {
    const slash = groupOrApiVersion.indexOf('/');
    const group = slash < 0 ? '' : groupOrApiVersion.slice(0, slash);
    const version = slash < 0 ? groupOrApiVersion : groupOrApiVersion.slice(slash + 1);
    return byKindKey.get(kindKey({ group, version, kind }));
  }
  return REGISTRY.find((k) => k.group === groupOrApiVersion && k.kind === kind);
}

/**
 * What kubectl's RESTMapper accepts on a command line: a plural, singular,
 * short name or kind (any case), optionally qualified by group
 * (`deployments.apps`, `deploy.apps`).
 */
export function resolveResource(name: string): ResourceKind | undefined {
  const lower = name.toLowerCase();
  const matches = (k: ResourceKind, n: string) =>
    k.plural === n || k.singular === n || k.shortNames.includes(n) || k.kind.toLowerCase() === n;
  const direct = REGISTRY.find((k) => matches(k, lower));
  if (direct) return direct;
  const dot = lower.indexOf('.');
  if (dot < 0) return undefined;
  const [resource, group] = [lower.slice(0, dot), lower.slice(dot + 1)];
  return REGISTRY.find((k) => k.group === group && matches(k, resource));
}
