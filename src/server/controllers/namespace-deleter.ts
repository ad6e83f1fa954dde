/**
 * The namespace controller's deleter (pkg/controller/namespace/deletion/
 * namespaced_resources_deleter.go): one pass over a terminating namespace deletes its content,
 * reports what holds it in the namespace's conditions (namespace-conditions.ts), and once
 * nothing remains releases the namespace. The controller (namespace-controller.ts) decides when
 * a pass runs; the admission half (no new content in a terminating namespace, the immortal
 * ones) is admission/namespace-lifecycle.ts.
 */
import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import { NAMESPACE_FINALIZER, namespaceSpecFinalizers } from '../registry/delete-rules.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { type ContentReport, type NamespaceCondition, updatedConditions } from './namespace-conditions.js';

/** The namespace controller runs in kube-controller-manager: its writes carry that manager. */
const KUBE_CONTROLLER_MANAGER = { fieldManager: { manager: 'kube-controller-manager' } };

/** What deleting one resource's objects in a namespace left (the deleter's `gvrDeletionMetadata`). */
interface ResourceResult {
  remaining: number;
  finalizers: Map<string, number>;
  error?: string;
}

/** What a pass found: the namespace released (or not the deleter's to finish), or held by content. */
export type PassOutcome = 'done' | 'contentRemaining';

/** Deletes a terminating namespace's content and releases it. */
export class NamespaceDeleter {
  private readonly objects: ObjectStorage;
  private readonly clock: Clock;

  constructor(objects: ObjectStorage, clock: Clock) {
    this.objects = objects;
    this.clock = clock;
  }

  /**
   * One pass, as the namespace controller's deleter makes it
   * (pkg/controller/namespace/deletion/namespaced_resources_deleter.go,
   * `namespacedResourcesDeleter.Delete`): nothing to do unless the namespace
   * is terminating and still holds the `kubernetes` spec finalizer; then its
   * content is deleted, the conditions updated, and once nothing remains the
   * finalizer is removed, which removes the namespace unless metadata
   * finalizers still hold it (`ShouldDeleteNamespaceDuringUpdate`). The namespace is read live
   * (`Delete` gets it through the client, not the informer). Rejects when a delete failed (the
   * failure is then in the namespace's `NamespaceDeletionContentFailure` condition).
   */
  async pass(name: string, kinds: readonly ResourceKind[]): Promise<PassOutcome> {
    const nsKind = namespaceKind();
    const ns = await this.objects.get(nsKind, undefined, name).catch(ignoreNotFound);
    if (!ns?.metadata?.deletionTimestamp) return 'done';
    // `finalized`: an empty spec.finalizers is the controller's work done.
    if (namespaceSpecFinalizers(ns).length === 0) return 'done';
    const report = await this.deleteAllContent(name, kinds);
    await this.writeConditions(name, report);
    if (report.errors.length > 0) {
      throw new Error(`namespace ${name}: ${[...report.errors].sort().join(', ')}`);
    }
    if (report.remaining.size > 0) return 'contentRemaining';
    // `finalizeNamespace`: the controller's token goes from spec.finalizers (the others stay).
    await this.objects
      .guaranteedUpdate(nsKind, undefined, name, 'finalize', KUBE_CONTROLLER_MANAGER, (current) => {
        const finalizers = namespaceSpecFinalizers(current).filter((f) => f !== NAMESPACE_FINALIZER);
        current.spec = { ...(current.spec as object), finalizers };
        return current;
      })
      .catch(ignoreNotFound);
    return 'done';
  }

  /**
   * Deletes every namespaced object in `namespace` (`deleteAllContent`), and
   * reports what is left. Pods go first: with OrderedNamespaceDeletion (beta
   * and on by default in 1.33, the release this server reports), while pods
   * remain nothing else is deleted, and the conditions get no content totals.
   */
  private async deleteAllContent(namespace: string, kinds: readonly ResourceKind[]): Promise<ContentReport> {
    const report: ContentReport = {
      remaining: new Map(),
      finalizers: new Map(),
      totalsReported: true,
      errors: [],
    };
    const namespaced = kinds.filter((k) => k.namespaced);
    const pods = namespaced.find((k) => k.group === '' && k.plural === 'pods');
    const add = (kind: ResourceKind, result: ResourceResult) => {
      if (result.error !== undefined) report.errors.push(result.error);
      if (result.remaining === 0) return;
      report.remaining.set(`${kind.plural}.${kind.group}`, result.remaining);
      for (const [finalizer, n] of result.finalizers)
        report.finalizers.set(finalizer, (report.finalizers.get(finalizer) ?? 0) + n);
    };
    if (pods) {
      add(pods, await this.deleteAllOf(pods, namespace));
      if (report.remaining.size > 0) return { ...report, totalsReported: false };
    }
    for (const kind of namespaced) {
      if (kind !== pods) add(kind, await this.deleteAllOf(kind, namespace));
    }
    return report;
  }

  /**
   * Deletes the objects of `kind` in `namespace` as a DELETE with Background
   * propagation would (`deleteAllContentForGroupVersionResource`), then counts
   * what is left and the finalizers holding it. Objects left without a
   * finalizer are the deleter's "unexpected items" error. (Upstream waits out
   * a pod's grace period before calling that an error; pods here go at once.)
   */
  private async deleteAllOf(kind: ResourceKind, namespace: string): Promise<ResourceResult> {
    const resource = `${kind.group}/${kind.version}, Resource=${kind.plural}`;
    try {
      for (const obj of await this.list(kind, namespace)) {
        await this.objects
          .delete(kind, namespace, obj.metadata?.name ?? '', { propagationPolicy: 'Background' })
          .catch(ignoreNotFound);
      }
      const left = await this.list(kind, namespace);
      const finalizers = new Map<string, number>();
      for (const obj of left)
        for (const f of obj.metadata?.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      const error =
        left.length > 0 && finalizers.size === 0
          ? `unexpected items still remain in namespace: ${namespace} for gvr: ${resource}`
          : undefined;
      return { remaining: left.length, finalizers, error };
    } catch (err) {
      return { remaining: 0, finalizers: new Map(), error: errorMessage(err) };
    }
  }

  /**
   * The objects of `kind` in `namespace`, listed live: the deleter lists through the API with
   * no resourceVersion, a consistent read, so a pass never counts an object it has just deleted.
   */
  private list(kind: ResourceKind, namespace: string): Promise<KubeObject[]> {
    return this.objects.list(kind, namespace);
  }

  /**
   * Writes the conditions of `report` through the status subresource when
   * they changed (the deleter's `UpdateStatus`); a namespace gone meanwhile
   * needs none.
   */
  private async writeConditions(name: string, report: ContentReport): Promise<void> {
    const now = this.clock.now();
    await this.objects
      .guaranteedUpdate(namespaceKind(), undefined, name, 'status', KUBE_CONTROLLER_MANAGER, (current) => {
        const status = (current.status ?? {}) as { conditions?: NamespaceCondition[] };
        const { conditions, changed } = updatedConditions(status.conditions, report, now);
        if (changed) current.status = { ...status, conditions };
        return current;
      })
      .catch(ignoreNotFound);
  }
}

function namespaceKind(): ResourceKind {
  return findByKind('v1', 'Namespace')!;
}

/** Rethrows anything but a 404: an object or namespace gone meanwhile is what a pass wants. */
function ignoreNotFound(err: unknown): undefined {
  if (err instanceof StatusError && err.code === 404) return undefined;
  throw err;
}

function errorMessage(err: unknown): string {
  if (err instanceof StatusError) return err.status.message ?? err.message;
  return err instanceof Error ? err.message : String(err);
}
