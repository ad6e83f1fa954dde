/**
 * The scheduler (default-scheduler): binds each pending pod to the Ready,
 * schedulable node with the fewest pods below its `pods` allocatable. As
 * kube-scheduler it decides one pod at a time against its cache, "assumes"
 * the pod onto the node at once (so the next decision counts it before the
 * watch confirms the binding), and binds in the background. A pod that fits
 * nowhere gets a FailedScheduling warning and PodScheduled=False, and is
 * retried when capacity may have freed: a pod deleted or finished, a node
 * added or changed.
 */
import type { Informer } from '../client/informer/informer.js';
import type { TimerHandle } from '../protocol/clock.js';
import { parseQuantity } from '../protocol/quantity.js';
import type { StatusError } from '../protocol/status.js';
import { isNotFound } from '../protocol/status.js';
import { Controller, type SimContext } from './core/controller.js';
import {
  findCondition,
  isDeleting,
  keyOf,
  type Node,
  POD_KIND,
  type Pod,
  rfc3339,
  typed,
} from './core/objects.js';
import { isPodTerminal } from './core/pods.js';
import { Semaphore } from './core/semaphore.js';
import type { EventRecorder } from './events/recorder.js';

/** The scheduler's name, in events and `spec.schedulerName`. */
export const SCHEDULER_NAME = 'default-scheduler';

/** The informers the scheduler reads. */
export interface SchedulerInformers {
  pods: Informer<Pod>;
  nodes: Informer<Node>;
}

const byName = new Intl.Collator('en', { numeric: true });

/** Whether this scheduler should place `pod`. */
function needsScheduling(pod: Pod): boolean {
  return (
    !pod.spec.nodeName &&
    !isDeleting(pod) &&
    !isPodTerminal(pod) &&
    (pod.spec.schedulerName ?? SCHEDULER_NAME) === SCHEDULER_NAME
  );
}

/** See the module comment. */
export class Scheduler extends Controller {
  /** Bindings written. */
  bound = 0;
  private readonly informers: SchedulerInformers;
  private readonly recorder: EventRecorder;
  /** Pods assumed onto a node whose binding the watch has not shown yet. */
  private readonly assumed = new Set<string>();
  /** Where each pod sits (bound or assumed, not finished), and the count per node: kept as events arrive. */
  private readonly occupancy = new Map<string, string>();
  private readonly perNode = new Map<string, number>();
  /** The nodes in name order (node-2 before node-10), rebuilt when a node changes. */
  private nodeOrder: Node[] | undefined;
  private readonly unschedulable = new Set<string>();
  private readonly binds = new Set<Promise<void>>();
  private readonly bindSlots = new Semaphore(16);
  private readonly removers: Array<() => void> = [];
  private flushTimer: TimerHandle | undefined;
  /** False once the server answered that it has no pods/binding subresource. */
  private bindingServed = true;

  constructor(ctx: SimContext, informers: SchedulerInformers, recorder: EventRecorder) {
    super(SCHEDULER_NAME, ctx);
    this.informers = informers;
    this.recorder = recorder;
    this.removers.push(
      informers.pods.on({
        add: (pod) => this.podChanged(pod),
        update: (old, pod) => {
          this.podChanged(pod);
          if (pod.spec.nodeName && !isPodTerminal(old) && isPodTerminal(pod)) this.capacityMayHaveFreed();
        },
        delete: (pod) => {
          this.assumed.delete(keyOf(pod));
          this.occupy(keyOf(pod), undefined);
          this.unschedulable.delete(keyOf(pod));
          if (pod.spec.nodeName) this.capacityMayHaveFreed();
        },
      }),
      informers.nodes.on({
        add: () => this.nodesChanged(),
        update: () => this.nodesChanged(),
        delete: () => this.nodesChanged(),
      }),
    );
  }

  override async stop(): Promise<void> {
    for (const remove of this.removers.splice(0)) remove();
    this.flushTimer?.cancel();
    await super.stop();
    await Promise.allSettled([...this.binds]);
  }

  private podChanged(pod: Pod): void {
    const key = keyOf(pod);
    const node = pod.spec.nodeName;
    if (node) {
      this.assumed.delete(key);
      this.occupy(key, isPodTerminal(pod) ? undefined : node);
    } else if (!this.assumed.has(key)) {
      this.occupy(key, undefined);
    }
    if (needsScheduling(pod) && !this.unschedulable.has(key)) this.enqueue(key);
  }

  /** Moves a pod's place to `node` (undefined: it takes none). */
  private occupy(key: string, node: string | undefined): void {
    const before = this.occupancy.get(key);
    if (before === node) return;
    if (before !== undefined) this.perNode.set(before, (this.perNode.get(before) ?? 1) - 1);
    if (node === undefined) {
      this.occupancy.delete(key);
      return;
    }
    this.occupancy.set(key, node);
    this.perNode.set(node, (this.perNode.get(node) ?? 0) + 1);
  }

  private nodesChanged(): void {
    this.nodeOrder = undefined;
    this.capacityMayHaveFreed();
  }

  /** Moves every unschedulable pod back to the queue, batching bursts of events. */
  private capacityMayHaveFreed(): void {
    if (this.unschedulable.size === 0 || this.flushTimer) return;
    this.flushTimer = this.ctx.clock.setTimeout(() => {
      this.flushTimer = undefined;
      for (const key of this.unschedulable) this.enqueue(key);
      this.unschedulable.clear();
    }, 20);
  }

  /** Pods on `node`: bound there (not finished) or assumed there. */
  private podsOn(node: string): number {
    return this.perNode.get(node) ?? 0;
  }

  protected async sync(key: string): Promise<void> {
    const pod = this.informers.pods.get(key);
    if (!pod || !needsScheduling(pod) || this.assumed.has(key)) return;
    this.nodeOrder ??= this.informers.nodes
      .list()
      .sort((a, b) => byName.compare(a.metadata?.name ?? '', b.metadata?.name ?? ''));
    const nodes = this.nodeOrder;
    let best: { name: string; pods: number } | undefined;
    let full = 0;
    let notReady = 0;
    let cordoned = 0;
    for (const node of nodes) {
      const name = node.metadata?.name ?? '';
      if (findCondition(node.status?.conditions, 'Ready')?.status !== 'True') {
        notReady++;
        continue;
      }
      if (node.spec?.unschedulable) {
        cordoned++;
        continue;
      }
      const count = this.podsOn(name);
      if (count >= (parseQuantity(node.status?.allocatable?.pods ?? '110') ?? 110)) {
        full++;
        continue;
      }
      if (!best || count < best.pods) best = { name, pods: count };
    }
    if (!best) return this.failed(pod, schedulingFailure(nodes.length, full, notReady, cordoned));
    this.assumed.add(key);
    this.occupy(key, best.name);
    const bind = this.bindSlots.run(() => this.bind(pod, best.name));
    this.binds.add(bind);
    void bind.finally(() => this.binds.delete(bind));
  }

  /**
   * Binds as kube-scheduler does: a POST of a Binding to pods/binding, which
   * tests the pod's uid. kube-apiserver applies a binding straight to storage
   * (pkg/registry/core/pod/storage/storage.go, `BindingREST.setPodNodeAndMetadata`),
   * so a real pod's managedFields name no manager for spec.nodeName. A server
   * without the subresource (a 404 naming no pod) gets a JSON patch of
   * spec.nodeName instead, testing the uid too, from then on.
   */
  private async bind(pod: Pod, node: string): Promise<void> {
    const key = keyOf(pod);
    const ns = pod.metadata?.namespace ?? '';
    try {
      if (this.bindingServed) {
        try {
          await this.postBinding(pod, node);
        } catch (err) {
          if (!isMissingRoute(err)) throw err;
          // Expected on watchmark's own server (the patch is its binding), so not logged.
          this.bindingServed = false;
          await this.patchNodeName(pod, node);
        }
      } else {
        await this.patchNodeName(pod, node);
      }
      this.bound++;
      this.recorder.event(
        typed(pod, POD_KIND),
        'Normal',
        'Scheduled',
        `Successfully assigned ${ns}/${pod.metadata?.name} to ${node}`,
      );
    } catch (err) {
      this.assumed.delete(key);
      this.occupy(key, undefined);
      if (this.ctx.signal.aborted || isNotFound(err)) return;
      this.ctx.log(`${SCHEDULER_NAME}: binding ${key} to ${node} failed: ${(err as Error).message}`);
      this.queue.addRateLimited(key);
    }
  }

  /** kube-scheduler's DefaultBinder (pkg/scheduler/framework/plugins/defaultbinder/default_binder.go, `Bind`). */
  private async postBinding(pod: Pod, node: string): Promise<void> {
    const { name = '', namespace, uid } = pod.metadata ?? {};
    const path = await this.ctx.kube.resource('pods', namespace).resolvePath(this.ctx.signal);
    await this.ctx.kube.transport.json({
      method: 'POST',
      path: path.objectPath(name, 'binding'),
      body: {
        apiVersion: 'v1',
        kind: 'Binding',
        metadata: { name, namespace, uid },
        target: { kind: 'Node', name: node },
      },
      signal: this.ctx.signal,
    });
  }

  private async patchNodeName(pod: Pod, node: string): Promise<void> {
    const patch = [
      { op: 'test', path: '/metadata/uid', value: pod.metadata?.uid },
      { op: 'add', path: '/spec/nodeName', value: node },
    ];
    await this.ctx.kube
      .resource<Pod>('pods', pod.metadata?.namespace)
      .patch(pod.metadata?.name ?? '', patch, 'json', { signal: this.ctx.signal });
  }

  /** FailedScheduling: a warning event, PodScheduled=False, and a place among the unschedulable. */
  private async failed(pod: Pod, message: string): Promise<void> {
    const key = keyOf(pod);
    this.unschedulable.add(key);
    this.recorder.event(typed(pod, POD_KIND), 'Warning', 'FailedScheduling', message);
    const current = findCondition(pod.status?.conditions, 'PodScheduled');
    if (current?.status === 'False' && current.message === message) return;
    const condition = {
      type: 'PodScheduled',
      status: 'False',
      lastProbeTime: null,
      lastTransitionTime: rfc3339(this.ctx.clock.now()),
      reason: 'Unschedulable',
      message,
    };
    const others = (pod.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
    try {
      await this.ctx.kube
        .resource<Pod>('pods', pod.metadata?.namespace)
        .patch(pod.metadata?.name ?? '', { status: { conditions: [...others, condition] } }, 'merge', {
          subresource: 'status',
          signal: this.ctx.signal,
        });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

/** A 404 for the route itself (no such subresource), not for a missing pod, whose 404 names it. */
function isMissingRoute(err: unknown): boolean {
  return isNotFound(err) && !(err as StatusError).status.details?.name;
}

/**
 * kube-scheduler's FitError text, e.g. `0/3 nodes are available: 3 Too
 * many pods. preemption: 0/3 nodes are available: 3 No preemption victims
 * found for incoming pod.`
 */
export function schedulingFailure(total: number, full: number, notReady: number, cordoned: number): string {
  if (total === 0) return 'no nodes available to schedule pods';
  const reasons: string[] = [];
  if (full) reasons.push(`${full} Too many pods`);
  if (notReady) reasons.push(`${notReady} node(s) had untolerated taint {node.kubernetes.io/not-ready: }`);
  if (cordoned) reasons.push(`${cordoned} node(s) were unschedulable`);
  const preemption: string[] = [];
  if (full) preemption.push(`${full} No preemption victims found for incoming pod`);
  if (notReady + cordoned) preemption.push(`${notReady + cordoned} Preemption is not helpful for scheduling`);
  return (
    `0/${total} nodes are available: ${reasons.sort().join(', ')}. ` +
    `preemption: 0/${total} nodes are available: ${preemption.sort().join(', ')}.`
  );
}
