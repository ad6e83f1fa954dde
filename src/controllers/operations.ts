/**
 * The garbage collector's requests, as kube-controller-manager's
 * pkg/controller/garbagecollector/operations.go and patch.go make them:
 * reads and deletes addressed by an owner reference's apiVersion and kind
 * (resolved over discovery), deletes with uid and resourceVersion
 * preconditions, ownerReference edits as a strategic merge patch with a
 * JSON merge patch for kinds that take none (custom resources), and
 * finalizer removal as a merge patch carrying the resourceVersion read.
 */
import type { KubeClient } from '../client/client.js';
import type { ResourceClient } from '../client/rest.js';
import { retryOnConflict } from '../client/retry.js';
import type { ResourceType } from '../client/watch/resources.js';
import type { KubeObject, OwnerReference } from '../protocol/events.js';
import { isConflict, isNotFound, StatusError } from '../protocol/status.js';
import type { ObjectIdentity } from './graph.js';

/** operations.go's `restMappingError`: a reference to a kind discovery does not (yet) serve. */
export class RestMappingError extends Error {
  constructor(apiVersion: string, kind: string, options?: ErrorOptions) {
    super(`unable to get REST mapping for ${kind}.${apiVersion}`, options);
    this.name = 'RestMappingError';
  }
}

/** The propagation policy of a delete the collector sends. */
export type Propagation = 'Orphan' | 'Foreground' | 'Background';

/** Requests addressed by identity (see the module comment). */
export class Operations {
  private readonly kube: KubeClient;
  private readonly signal: AbortSignal;

  constructor(kube: KubeClient, signal: AbortSignal) {
    this.kube = kube;
    this.signal = signal;
  }

  /** `apiResource`: the served resource of an apiVersion and kind. */
  async apiResource(apiVersion: string, kind: string): Promise<ResourceType> {
    try {
      return await this.kube.mapper.kindFor(apiVersion, kind, this.signal);
    } catch (err) {
      if (err instanceof StatusError || this.signal.aborted) throw err;
      throw new RestMappingError(apiVersion, kind, { cause: err });
    }
  }

  /** The resource client for `id`: its namespace if its kind is namespaced (`resourceDefaultNamespace`). */
  async clientFor(id: ObjectIdentity): Promise<ResourceClient> {
    const type = await this.apiResource(id.apiVersion, id.kind);
    return this.kube.resource(type, type.namespaced ? id.namespace : undefined);
  }

  /** `getObject`: the live object (a 404 throws). */
  async getObject(id: ObjectIdentity): Promise<KubeObject> {
    return (await this.clientFor(id)).get(id.name, { signal: this.signal });
  }

  /**
   * `deleteObject`: preconditions on uid and the resourceVersion the decision
   * was made on; when that resourceVersion is stale but the ownerReferences
   * are unchanged, once more with the uid alone. A 404 throws.
   */
  async deleteObject(
    id: ObjectIdentity,
    resourceVersion: string,
    owners: OwnerReference[],
    policy: Propagation,
  ): Promise<void> {
    const client = await this.clientFor(id);
    const del = (rv?: string) =>
      client.delete(id.name, {
        propagationPolicy: policy,
        preconditions: rv ? { uid: id.uid, resourceVersion: rv } : { uid: id.uid },
        signal: this.signal,
      });
    try {
      await del(resourceVersion);
    } catch (err) {
      if (!isConflict(err)) throw err;
      const live = await client.get(id.name, { signal: this.signal });
      const m = live.metadata ?? {};
      if (m.uid !== id.uid || m.resourceVersion === resourceVersion) throw err;
      if (JSON.stringify(m.ownerReferences ?? []) !== JSON.stringify(owners)) throw err;
      await del();
    }
  }

  /**
   * `patch`: the strategic merge patch, else (415: the kind takes none, as
   * custom resources) the JSON merge patch `jsonMergePatch` builds from a
   * fresh read.
   */
  async patch(
    id: ObjectIdentity,
    strategic: unknown,
    jsonMergePatch: (live: KubeObject) => unknown,
  ): Promise<void> {
    const client = await this.clientFor(id);
    try {
      await client.patch(id.name, strategic, 'strategic', { signal: this.signal });
      return;
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 415)) throw err;
    }
    const live = await client.get(id.name, { signal: this.signal });
    await client.patch(id.name, jsonMergePatch(live), 'merge', { signal: this.signal });
  }

  /**
   * `removeFinalizer`: read, drop `finalizer`, write the rest as a merge
   * patch with the resourceVersion read, again on a conflict. Gone, or
   * without the finalizer already: nothing to do.
   */
  async removeFinalizer(id: ObjectIdentity, finalizer: string): Promise<void> {
    await retryOnConflict(
      async () => {
        let live: KubeObject;
        try {
          live = await this.getObject(id);
        } catch (err) {
          if (isNotFound(err)) return;
          throw err;
        }
        const finalizers = live.metadata?.finalizers ?? [];
        if (!finalizers.includes(finalizer)) return;
        const rest = finalizers.filter((f) => f !== finalizer);
        const patch = {
          metadata: {
            resourceVersion: live.metadata?.resourceVersion,
            finalizers: rest.length > 0 ? rest : null,
          },
        };
        await (await this.clientFor(id)).patch(id.name, patch, 'merge', { signal: this.signal });
      },
      { steps: 4 },
    );
  }

  /** Records a Warning event about `id` as the collector (the event recorder's `Eventf`). */
  async warn(id: ObjectIdentity, reason: string, message: string): Promise<void> {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const namespace = id.namespace || 'default';
    await this.kube.resource('events', namespace).create(
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${id.name}.`, namespace },
        involvedObject: {
          apiVersion: id.apiVersion,
          kind: id.kind,
          name: id.name,
          namespace: id.namespace || undefined,
          uid: id.uid,
        },
        reason,
        message,
        type: 'Warning',
        source: { component: 'garbage-collector-controller' },
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      },
      { signal: this.signal },
    );
  }
}

/** `GenerateDeleteOwnerRefStrategicMergeBytes`: delete the references to `ownerUids`, the dependent's uid as precondition. */
export function deleteOwnerRefsStrategic(dependentUid: string, ownerUids: string[]): unknown {
  return {
    metadata: { ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })), uid: dependentUid },
  };
}

/** `deleteOwnerRefJSONMergePatch`: the remaining references whole, with the resourceVersion read. */
export function deleteOwnerRefsMerge(live: KubeObject, ownerUids: string[]): unknown {
  const rest = (live.metadata?.ownerReferences ?? []).filter((r) => !ownerUids.includes(r.uid));
  return {
    metadata: {
      resourceVersion: live.metadata?.resourceVersion,
      ownerReferences: rest.length > 0 ? rest : null,
    },
  };
}

/** `unblockOwnerReferencesStrategicMergePatch`: every blocking reference set to blockOwnerDeletion false. */
export function unblockOwnerRefsStrategic(uid: string, owners: OwnerReference[]): unknown {
  const blocking = owners
    .filter((r) => r.blockOwnerDeletion === true)
    .map((r) => ({ ...r, blockOwnerDeletion: false }));
  return { metadata: { ownerReferences: blocking, uid } };
}

/** `unblockOwnerReferencesJSONMergePatch`: the references whole, none blocking, with the resourceVersion read. */
export function unblockOwnerRefsMerge(live: KubeObject): unknown {
  const refs = (live.metadata?.ownerReferences ?? []).map((r) =>
    r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
  );
  return { metadata: { resourceVersion: live.metadata?.resourceVersion, ownerReferences: refs } };
}
