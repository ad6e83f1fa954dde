/**
 * A simulated kubelet: registers its Node, renews its Lease in
 * kube-node-lease, and runs the pods bound to it. It watches only its own
 * pods (`fieldSelector=spec.nodeName=<node>`, all namespaces) through an
 * informer with bookmarks: the case bookmarks were made for, since such a
 * watch sees few events while the cluster's resourceVersion races ahead,
 * and without bookmarks every reconnect after compaction would relist.
 */
import type { Informer } from '../../client/informer/informer.js';
import type { TimerHandle } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { isAlreadyExists, isConflict } from '../../protocol/status.js';
import type { SimContext } from '../core/controller.js';
import { isDeleting, microTime, type Node, type Pod, rfc3339 } from '../core/objects.js';
import { isPodTerminal } from '../core/pods.js';
import type { Semaphore } from '../core/semaphore.js';
import type { SimulationTiming } from '../core/timing.js';
import type { EventBroadcaster, EventRecorder } from '../events/recorder.js';
import type { ObjectReference } from '../events/types.js';
import { ImageStore } from './images.js';
import {
  type KubeletEndpoint,
  leaseObject,
  NODE_LEASE_NAMESPACE,
  nodeConditions,
  nodeIP,
  nodeObject,
  podCIDR,
} from './node.js';
import { type KubeletHost, PodWorker } from './pod-worker.js';
import type { ImageRegistry } from './registry.js';

/** Options of one {@link Kubelet}. */
export interface KubeletOptions {
  name: string;
  /** Position among the nodes: picks its IP and pod CIDR. */
  index: number;
  /** `pods` capacity and allocatable. */
  podCapacity: number;
  timing: Required<SimulationTiming>;
  /** The simulated registry the kubelet pulls from (shared by every node). */
  registry: ImageRegistry;
  /** Shared bound on the kubelets' requests in flight. */
  slots: Semaphore;
  /** This kubelet's own event broadcaster (each kubelet is its own process in a real cluster). */
  events: EventBroadcaster;
  /** Where its API (the container logs, logs.ts) listens; absent: nowhere. */
  endpoint?: KubeletEndpoint;
}

/** How often the kubelet re-reports node status when nothing changed (nodeStatusReportFrequency: 5 min). */
const STATUS_REPORT_BEATS = 30;

/** See the module comment. */
export class Kubelet implements KubeletHost {
  readonly ctx: SimContext;
  readonly nodeName: string;
  readonly hostIP: string;
  readonly recorder: EventRecorder;
  readonly timing: Required<SimulationTiming>;
  readonly registry: ImageRegistry;
  readonly images = new ImageStore();
  readonly slots: Semaphore;
  /** The registered Node. */
  node: Node | undefined;
  private readonly opts: KubeletOptions;
  private readonly workers = new Map<string, PodWorker>();
  private informer: Informer<Pod> | undefined;
  private lease: KubeObject | undefined;
  private heartbeat: TimerHandle | undefined;
  private beating: Promise<void> | undefined;
  private beats = 0;
  private nextIP = 0;
  private stopped = false;

  constructor(ctx: SimContext, opts: KubeletOptions) {
    this.ctx = ctx;
    this.opts = opts;
    this.nodeName = opts.name;
    this.hostIP = nodeIP(opts.index);
    this.timing = opts.timing;
    this.registry = opts.registry;
    this.slots = opts.slots;
    this.recorder = opts.events.recorder({ component: 'kubelet', host: opts.name });
  }

  /** Pods this kubelet is running (or trying to). */
  get podCount(): number {
    return this.workers.size;
  }

  /** The reference kubelets put on node events: the node's name doubles as its uid. */
  private get nodeRef(): ObjectReference {
    return { kind: 'Node', name: this.nodeName, uid: this.nodeName };
  }

  /** Registers (or re-registers) the Node, takes the Lease, starts heartbeats. */
  async register(): Promise<Node> {
    const nodes = this.ctx.kube.resource<Node>('nodes');
    const wanted = nodeObject(
      this.nodeName,
      this.opts.index,
      this.opts.podCapacity,
      this.ctx.clock.now(),
      this.opts.endpoint,
    );
    this.recorder.event(this.nodeRef, 'Normal', 'Starting', 'Starting kubelet.');
    try {
      this.node = await nodes.create(wanted, { signal: this.ctx.signal });
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      // A kubelet restarting on a known node: take the node over with fresh status.
      const existing = await nodes.get(this.nodeName, { signal: this.ctx.signal });
      this.node = await nodes.updateStatus(
        { ...existing, status: wanted.status },
        { signal: this.ctx.signal },
      );
    }
    for (const reason of ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']) {
      this.recorder.event(this.nodeRef, 'Normal', reason, `Node ${this.nodeName} status is now: ${reason}`);
    }
    this.recorder.event(
      this.nodeRef,
      'Normal',
      'NodeAllocatableEnforced',
      'Updated Node Allocatable limit across pods',
    );
    this.recorder.event(
      this.nodeRef,
      'Normal',
      'NodeReady',
      `Node ${this.nodeName} status is now: NodeReady`,
    );
    await this.renewLease();
    this.scheduleHeartbeat();
    return this.node;
  }

  /** Starts watching this node's pods; resolves once the informer has synced. */
  async runPods(): Promise<void> {
    this.informer = this.ctx.kube.informer<Pod>('pods', {
      allNamespaces: true,
      fieldSelector: `spec.nodeName=${this.nodeName}`,
    });
    this.informer.on({
      add: (pod) => this.podSeen(pod),
      update: (_, pod) => this.podSeen(pod),
      delete: (pod) => this.podGone(pod),
    });
    this.informer.start();
    await this.informer.synced();
  }

  /** A pod IP from the node's CIDR (.2 to .254, then round again). */
  allocatePodIP(): string {
    const base = podCIDR(this.opts.index).split('.').slice(0, 3).join('.');
    return `${base}.${2 + (this.nextIP++ % 253)}`;
  }

  private podSeen(pod: Pod): void {
    if (this.stopped) return;
    const uid = pod.metadata?.uid ?? '';
    const worker = this.workers.get(uid);
    if (worker) {
      worker.update(pod);
      return;
    }
    if (isPodTerminal(pod)) return;
    const w = new PodWorker(this, pod);
    this.workers.set(uid, w);
    if (isDeleting(pod)) w.update(pod);
    else w.start();
  }

  private podGone(pod: Pod): void {
    const uid = pod.metadata?.uid ?? '';
    const worker = this.workers.get(uid);
    if (!worker) return;
    this.workers.delete(uid);
    void worker.stop(true);
  }

  private scheduleHeartbeat(): void {
    if (this.stopped) return;
    this.heartbeat = this.ctx.clock.setTimeout(() => {
      this.beating = this.beat().finally(() => {
        this.beating = undefined;
        this.scheduleHeartbeat();
      });
    }, this.timing.heartbeatMs);
  }

  private async beat(): Promise<void> {
    try {
      await this.renewLease();
      if (++this.beats % STATUS_REPORT_BEATS === 0) await this.reportStatus();
    } catch (err) {
      if (!this.ctx.signal.aborted)
        this.ctx.log(`kubelet ${this.nodeName}: heartbeat: ${(err as Error).message}`);
    }
  }

  /** Creates or renews the Lease (a PUT from the last copy; a conflict re-reads it next time). */
  private async renewLease(): Promise<void> {
    const leases = this.ctx.kube.resource('leases', NODE_LEASE_NAMESPACE);
    const now = this.ctx.clock.now();
    const signal = this.ctx.signal;
    if (!this.lease) {
      try {
        this.lease = await leases.create(leaseObject(this.node ?? {}, now), { signal });
        return;
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        this.lease = await leases.get(this.nodeName, { signal });
      }
    }
    const renewed = structuredClone(this.lease);
    (renewed.spec as Record<string, unknown>).renewTime = microTime(now);
    try {
      this.lease = await leases.update(renewed, { signal });
    } catch (err) {
      if (isConflict(err)) this.lease = undefined;
      throw err;
    }
  }

  /** The periodic node status report: fresh heartbeat times on the conditions. */
  private async reportStatus(): Promise<void> {
    const now = this.ctx.clock.now();
    const conditions = (this.node?.status?.conditions ?? nodeConditions(now)).map((c) => ({
      ...c,
      lastHeartbeatTime: rfc3339(now),
    }));
    this.node = await this.ctx.kube
      .resource<Node>('nodes')
      .patch(this.nodeName, { status: { conditions } }, 'merge', {
        subresource: 'status',
        signal: this.ctx.signal,
      });
  }

  /** The pod `namespace/name` as this kubelet last saw it, if it runs here. */
  pod(namespace: string, name: string): Pod | undefined {
    return this.informer?.get(`${namespace}/${name}`);
  }

  /** Stops heartbeats, the pod watch and every pod worker. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.heartbeat?.cancel();
    await this.beating;
    await this.informer?.stop();
    await Promise.all([...this.workers.values()].map((w) => w.stop(false)));
    this.workers.clear();
  }
}
