/**
 * The pattern two of kube-controller-manager's controllers share: one object of a fixed name
 * kept in every active namespace, made again when it is deleted or changed. The ServiceAccounts
 * controller keeps the `default` ServiceAccount (pkg/controller/serviceaccount/
 * serviceaccounts_controller.go); the root CA publisher keeps the `kube-root-ca.crt` ConfigMap
 * (pkg/controller/certificates/rootcacertpublisher/publisher.go). Each follows the namespaces
 * and its own objects through informers and syncs a namespace from a work queue: a namespace
 * that is terminating is left alone, as upstream's do (a create there would be refused anyway).
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { runQueueWorker } from '../protocol/queue-worker.js';
import { StatusError } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';

/** What one such controller keeps. */
export interface NamespaceObjectSpec {
  /** Its name in logs and stats (kube-controller-manager's, `serviceaccount-controller`). */
  controller: string;
  /** The resource (`serviceaccounts`, `configmaps`) and the object's name. */
  plural: string;
  name: string;
  /** The object it wants in `namespace`. */
  desired(namespace: string): KubeObject;
  /**
   * The stored object brought back to what is wanted, or undefined when it is as wanted. Absent:
   * an object of the name is enough (the ServiceAccounts controller only creates).
   */
  repair?(stored: KubeObject): KubeObject | undefined;
}

/** A running controller of {@link NamespaceObjectSpec}. */
export class NamespaceObjectController {
  private readonly queue: WorkQueue;
  private readonly namespaces: Informer;
  private readonly objects: Informer;
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    private readonly spec: NamespaceObjectSpec,
    clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    // Informers of its own (not the client's shared ones), stopped with it.
    this.namespaces = kube.informer('namespaces');
    this.objects = kube.informer(spec.plural, {
      allNamespaces: true,
      fieldSelector: `metadata.name=${spec.name}`,
    });
    const ns = (o: KubeObject) => o.metadata?.name ?? '';
    this.namespaces.on({ add: (o) => this.queue.add(ns(o)), update: (_, o) => this.queue.add(ns(o)) });
    const own = (o: KubeObject) => this.queue.add(o.metadata?.namespace ?? '');
    this.objects.on({ update: (_, o) => own(o), delete: (o) => own(o) });
  }

  /** Starts the informers and `workers` workers; resolves once both informers have listed. */
  async start(workers = 1): Promise<void> {
    this.namespaces.start();
    this.objects.start();
    await Promise.all([this.namespaces.synced(), this.objects.synced()]);
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.namespaces.stop(), this.objects.stop()]);
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.sync(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        this.log(`${this.spec.controller}: syncing namespace ${key}: ${(err as Error).message}`);
      },
    });
  }

  private async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.get(namespace);
    // Gone, or terminating: nothing may be created there.
    if (!ns || ns.metadata?.deletionTimestamp || (ns.status as { phase?: string })?.phase === 'Terminating')
      return;
    const client = this.kube.resource(this.spec.plural, namespace);
    const stored = this.objects.get(`${namespace}/${this.spec.name}`);
    if (stored) {
      const repaired = this.spec.repair?.(stored);
      if (repaired) await client.update(repaired);
      return;
    }
    try {
      await client.create(this.spec.desired(namespace));
    } catch (err) {
      // Made meanwhile (by another of us over one etcd), or the namespace went or began
      // terminating (403 with the NamespaceTerminating cause): not retried, as upstream.
      if (err instanceof StatusError && [403, 404, 409].includes(err.code)) return;
      throw err;
    }
  }
}
