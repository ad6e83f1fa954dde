/**
 * kube-apiserver's ServiceAccount admission plugin (k8s.io/kubernetes
 * plugin/pkg/admission/serviceaccount/admission.go, v1.37.2) on pods:
 *
 * - a create (`Admit`, then `Validate`): a pod naming no account gets `default`; the account
 *   must exist (a 403 `error looking up service account <ns>/<name>: serviceaccount "<name>"
 *   not found` otherwise); unless the pod or the account turns automount off, every init
 *   container and container mounts the token volume `kube-api-access-<5 random>` read-only at
 *   /var/run/secrets/kubernetes.io/serviceaccount; a pod with no image pull secrets gets the
 *   account's; an account annotated `kubernetes.io/enforce-mountable-secrets: "true"` limits
 *   the secrets the pod references. A mirror pod is not changed, only held to its limits.
 * - an update of `pods/ephemeralcontainers` (`Validate`): the account must still exist, and
 *   the ephemeral containers keep to its mountable secrets.
 *
 * What it does to the pod is service-account-pod.ts's; here are the lookups and the errors.
 * Its mutation runs where kube-apiserver's admission chain runs it on a create: after the
 * field manager (the volume belongs to no manager) and before the mutating webhooks, which see
 * the volume; admission.ts puts it first of the write's admission.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../protocol/events.js';
import { failureStatus, StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import { child, type JsonObject, rec, str } from '../kinds/access.js';
import { findByPlural } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import { generateName } from '../registry/meta.js';
import type { ObjectStorage, WriteAdmission } from '../registry/object-storage.js';
import { admissionName } from './namespace-lifecycle.js';
import {
  copyImagePullSecrets,
  enforcesMountableSecrets,
  ephemeralSecretReferenceRefusal,
  isMirrorPod,
  mirrorPodRefusal,
  mountServiceAccountToken,
  secretReferenceRefusal,
  shouldAutomount,
} from './service-account-pod.js';

/** The account a pod naming none runs as (`DefaultServiceAccountName`). */
export const DEFAULT_SERVICE_ACCOUNT = 'default';

/**
 * `getServiceAccount`: a name the cache lacks is read live this many times, 100 to 200 ms
 * apart, for `default` (kube-controller-manager's serviceaccount controller makes it moments
 * after the namespace), once for any other.
 */
const DEFAULT_ACCOUNT_ATTEMPTS = 10;

/** What the plugin reads ServiceAccounts through. */
export interface ServiceAccountAdmissionDeps {
  /** The watch cache: the plugin's lister. */
  cacher: Cacher;
  /** The object storage, for the live read (the plugin's client), once the server has built it. */
  objects(): ObjectStorage;
  /** Draws the retry interval (default Math.random). */
  random?: () => number;
  /** Makes the token volume's name (default the registry's generateName, utilrand's alphabet). */
  generateName?: (base: string) => string;
}

/** One write as the plugin needs to know it. */
export interface ServiceAccountWrite {
  kind: ResourceKind;
  subresource?: string;
  namespace?: string;
}

/** The ServiceAccount admission plugin (`Plugin`, with kube-apiserver's settings: token mounts on, secrets unlimited). */
export class ServiceAccountAdmission {
  private readonly deps: ServiceAccountAdmissionDeps;
  private readonly accounts: ResourceKind = findByPlural('', 'v1', 'serviceaccounts')!;
  private readonly generate: (base: string) => string;

  constructor(deps: ServiceAccountAdmissionDeps) {
    this.deps = deps;
    this.generate = deps.generateName ?? generateName;
  }

  /**
   * The plugin's part of a write, or undefined where `shouldIgnore` says it has none: anything
   * but pods and their `ephemeralcontainers` subresource.
   */
  forWrite(write: ServiceAccountWrite): WriteAdmission | undefined {
    const { kind, subresource } = write;
    if (kind.group !== '' || kind.plural !== 'pods') return undefined;
    if (subresource !== undefined && subresource !== '' && subresource !== 'ephemeralcontainers')
      return undefined;
    const namespace = write.namespace ?? '';
    const ephemeral = subresource === 'ephemeralcontainers';
    return {
      mutate: async (obj, old) => {
        if (!old && !ephemeral) await this.admit(obj, namespace);
        return obj;
      },
      validate: async (obj, old) => {
        if (!obj) return;
        if (old && ephemeral) await this.validateEphemeralContainers(obj, namespace);
        else if (!old) await this.validateCreate(obj, namespace);
      },
    };
  }

  /** `Admit` of a pod create. */
  private async admit(pod: KubeObject, namespace: string): Promise<void> {
    // The kubelet deletes a mirror pod whose spec differs from its static pod's: no changes.
    if (isMirrorPod(pod)) return this.validateCreate(pod, namespace);
    const spec = child(pod as JsonObject, 'spec');
    if (!spec) return;
    if (str(spec.serviceAccountName) === '') {
      spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT;
      spec.serviceAccount = DEFAULT_SERVICE_ACCOUNT;
    }
    const account = await this.accountOf(pod, namespace, str(spec.serviceAccountName));
    if (shouldAutomount(account, pod)) mountServiceAccountToken(pod, this.generate);
    copyImagePullSecrets(account, pod);
    await this.validateCreate(pod, namespace);
  }

  /** `Validate` of a pod create (run again after the webhooks, as kube's validating phase does). */
  private async validateCreate(pod: KubeObject, namespace: string): Promise<void> {
    if (isMirrorPod(pod)) {
      const refusal = mirrorPodRefusal(pod);
      if (refusal) throw forbidden(pod, refusal);
      return;
    }
    const name = str(rec(pod.spec).serviceAccountName);
    if (name === '')
      throw forbidden(pod, `no service account specified for pod ${namespace}/${podName(pod)}`);
    const account = await this.accountOf(pod, namespace, name);
    if (!enforcesMountableSecrets(account)) return;
    const refusal = secretReferenceRefusal(account, pod);
    if (refusal) throw forbidden(pod, refusal);
  }

  /** `limitEphemeralContainerSecretReferences`, on an update of pods/ephemeralcontainers. */
  private async validateEphemeralContainers(pod: KubeObject, namespace: string): Promise<void> {
    const name = str(rec(pod.spec).serviceAccountName);
    if (name === '')
      throw forbidden(pod, `no service account specified for pod ${namespace}/${podName(pod)}`);
    const account = await this.accountOf(pod, namespace, name);
    if (!enforcesMountableSecrets(account)) return;
    const refusal = ephemeralSecretReferenceRefusal(account, pod);
    // The plugin returns this one unwrapped: the handler answers it as an error that is no
    // Status, a 500 with no reason (responsewriters.ErrorToAPIStatus).
    if (refusal) throw new StatusError({ ...failureStatus('InternalError', refusal), reason: undefined });
  }

  /** The pod's account, or the plugin's 403 naming the lookup that failed. */
  private async accountOf(pod: KubeObject, namespace: string, name: string): Promise<JsonObject> {
    const account = await this.lookup(namespace, name);
    if (account) return account as JsonObject;
    throw forbidden(
      pod,
      `error looking up service account ${namespace}/${name}: serviceaccount "${name}" not found`,
    );
  }

  /**
   * `getServiceAccount`: the cache first; on a miss the storage, live (an account created a
   * moment ago may not have reached the cache), retried for `default` as upstream retries it.
   */
  private async lookup(namespace: string, name: string): Promise<KubeObject | undefined> {
    const cached = this.deps.cacher.cached(this.accounts, namespace, name);
    if (cached) return cached;
    const attempts = name === DEFAULT_SERVICE_ACCOUNT ? DEFAULT_ACCOUNT_ATTEMPTS : 1;
    const interval = 100 + Math.floor((this.deps.random ?? Math.random)() * 100);
    for (let i = 0; i < attempts; i++) {
      // Real time, not the server's clock: this waits for another process's controller, and a
      // manual clock that never advances would hang the request.
      if (i > 0) await sleep(interval, undefined, { ref: false });
      const live = await this.getLive(namespace, name);
      if (live) return live;
    }
    return undefined;
  }

  private getLive(namespace: string, name: string): Promise<KubeObject | undefined> {
    return this.deps
      .objects()
      .get(this.accounts, namespace, name)
      .catch((err: unknown) => {
        if (err instanceof StatusError && err.code === 404) return undefined;
        throw err;
      });
  }
}

function podName(pod: KubeObject): string {
  return str(pod.metadata?.name);
}

/**
 * `admission.NewForbidden`: the pod's name (or generateName: no name is generated before
 * admission), and the plugin's words after "is forbidden: ".
 */
function forbidden(pod: KubeObject, message: string): StatusError {
  const name = admissionName(pod);
  return StatusError.of('Forbidden', `pods "${name}" is forbidden: ${message}`, { name, kind: 'pods' });
}
