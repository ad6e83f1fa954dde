/**
 * One pod's life on a simulated node, as the kubelet's pod worker runs it:
 * admit (Pending, ContainerCreating), then for each init container and
 * container in order pull (Pulling/Pulled, or Failed/ErrImagePull and
 * BackOff/ImagePullBackOff with doubling back-off), create, start; then
 * Running, and Ready after the readiness delay. Status goes out through the
 * `status` subresource, coalesced: only the latest status is ever written.
 */
import type { Clock } from '../../protocol/clock.js';
import { sleep } from '../../protocol/clock.js';
import { formatDuration } from '../../protocol/duration.js';
import { isInvalid, isNotFound } from '../../protocol/status.js';
import type { SimContext } from '../core/controller.js';
import {
  type Condition,
  type Container,
  isDeleting,
  POD_KIND,
  type Pod,
  rfc3339,
  typed,
} from '../core/objects.js';
import type { Semaphore } from '../core/semaphore.js';
import type { SimulationTiming } from '../core/timing.js';
import type { EventRecorder } from '../events/recorder.js';
import { type CompletingRun, runPodToCompletion, runsToCompletion, terminatedState } from './completion.js';
import { containerID, type ImageStore, imageID, imageSize, normalizeImage, pullPolicy } from './images.js';
import type { ImageRegistry, PullResult } from './registry.js';

/** What a pod worker needs from its kubelet. */
export interface KubeletHost {
  readonly ctx: SimContext;
  readonly nodeName: string;
  readonly hostIP: string;
  readonly recorder: EventRecorder;
  readonly timing: Required<SimulationTiming>;
  /** The simulated registry pulls resolve against. */
  readonly registry: ImageRegistry;
  readonly images: ImageStore;
  /** Bounds this kubelet's (and its peers') requests in flight. */
  readonly slots: Semaphore;
  allocatePodIP(): string;
}

/** The runtime state of one container. */
interface Run extends CompletingRun {
  spec: Container;
  init: boolean;
}

/** See the module comment. */
export class PodWorker {
  pod: Pod;
  private readonly host: KubeletHost;
  private readonly clock: Clock;
  private readonly abort = new AbortController();
  private readonly runs: Run[];
  private readonly transitions = new Map<string, { status: string; at: string }>();
  private readonly startTime: string;
  private podIP: string | undefined;
  private phase = 'Pending';
  private ready = false;
  private desired: Record<string, unknown> | undefined;
  private writing: Promise<void> | undefined;
  private running: Promise<void> | undefined;
  private terminating: Promise<void> | undefined;

  constructor(host: KubeletHost, pod: Pod) {
    this.host = host;
    this.clock = host.ctx.clock;
    this.pod = pod;
    this.startTime = rfc3339(this.clock.now());
    const init = (pod.spec.initContainers ?? []).map((spec) => ({ spec, init: true }));
    const main = (pod.spec.containers ?? []).map((spec) => ({ spec, init: false }));
    this.runs = [...init, ...main].map((r) => ({
      ...r,
      waiting: { reason: r.init ? 'PodInitializing' : 'ContainerCreating' },
    }));
  }

  /** Starts the pod's life (once). */
  start(): void {
    this.running ??= this.run().catch((err: unknown) => {
      if (!this.abort.signal.aborted)
        this.host.ctx.log(`kubelet ${this.host.nodeName}: pod ${this.name}: ${(err as Error).message}`);
    });
  }

  /** Takes a newer version of the pod; a deletion mark starts termination. */
  update(pod: Pod): void {
    this.pod = pod;
    if (isDeleting(pod)) this.terminating ??= this.terminate();
  }

  /** The pod is gone from the API: stop its containers (Killing) and every timer. */
  async stop(gone: boolean): Promise<void> {
    if (gone && !this.terminating) this.killEvents();
    if (gone) this.desired = undefined;
    this.abort.abort();
    await this.running;
    await this.terminating;
    await this.writing;
  }

  private get name(): string {
    return `${this.pod.metadata?.namespace}/${this.pod.metadata?.name}`;
  }

  private wait(ms: number): Promise<boolean> {
    return sleep(this.clock, ms, this.abort.signal);
  }

  private event(type: 'Normal' | 'Warning', reason: string, message: string, run?: Run): void {
    const fieldPath = run
      ? `spec.${run.init ? 'initContainers' : 'containers'}{${run.spec.name}}`
      : undefined;
    this.host.recorder.event(typed(this.pod, POD_KIND), type, reason, message, fieldPath);
  }

  private async run(): Promise<void> {
    this.publish();
    for (const r of this.runs) {
      if (!(await this.runContainer(r))) return;
    }
    this.phase = 'Running';
    const t = this.host.timing;
    if (runsToCompletion(this.pod.spec.restartPolicy as string | undefined)) return this.complete();
    this.ready = t.readyMs <= 0;
    this.publish();
    if (t.readyMs > 0) {
      if (!(await this.wait(t.readyMs))) return;
      this.ready = true;
      this.publish();
    }
  }

  /** A Job's pod: Ready (no probe) while its containers run to their exits (completion.ts). */
  private async complete(): Promise<void> {
    this.ready = true;
    this.publish();
    const m = this.pod.metadata;
    const host = {
      wait: (ms: number) => this.wait(ms),
      publish: () => this.publish(),
      now: () => rfc3339(this.clock.now()),
      event: (type: 'Normal' | 'Warning', reason: string, message: string, r: object) =>
        this.event(type, reason, message, r as Run),
      podRef: `${m?.name}_${m?.namespace}(${m?.uid})`,
      backoffMs: this.host.timing.backoffMs,
    };
    const mains = this.runs.filter((r) => !r.init);
    const phase = await runPodToCompletion(host, mains, this.pod, this.host.timing.readyMs);
    if (!phase) return;
    this.ready = false;
    this.phase = phase;
    this.publish();
  }

  private async runContainer(r: Run): Promise<boolean> {
    const t = this.host.timing;
    if (!(await this.ensureImage(r))) return false;
    if (!(await this.wait(t.createMs))) return false;
    r.containerID = containerID(this.pod.metadata?.uid ?? '', r.spec.name);
    this.event('Normal', 'Created', `Created container: ${r.spec.name}`, r);
    if (!(await this.wait(t.startMs))) return false;
    r.waiting = undefined;
    r.startedAt = rfc3339(this.clock.now());
    this.event('Normal', 'Started', `Started container ${r.spec.name}`, r);
    if (r.init) {
      // An init container runs to completion before the next one starts.
      if (!(await this.wait(t.startMs))) return false;
      r.finishedAt = rfc3339(this.clock.now());
      this.publish();
    }
    return true;
  }

  /** `EnsureImageExists`: present, pulled, or failing with back-off until the pod goes. */
  private async ensureImage(r: Run): Promise<boolean> {
    const h = this.host;
    const image = r.spec.image ?? '';
    const invalid = h.registry.resolve(image);
    if (!invalid.ok && invalid.reason === 'InvalidImageName') {
      // The kubelet cannot even name the image: no pull, no back-off; the pod waits until fixed.
      this.event('Warning', 'InspectFailed', invalid.error, r);
      this.event('Warning', 'Failed', 'Error: InvalidImageName', r);
      r.waiting = { reason: 'InvalidImageName', message: invalid.error };
      this.publish();
      return false;
    }
    const policy = pullPolicy(image, r.spec.imagePullPolicy);
    if (policy !== 'Always' && h.images.has(image)) {
      this.event('Normal', 'Pulled', `Container image "${image}" already present on machine`, r);
      return true;
    }
    if (policy === 'Never') {
      const message = `Container image "${image}" is not present with pull policy of Never`;
      this.event('Warning', 'ErrImageNeverPull', message, r);
      r.waiting = { reason: 'ErrImageNeverPull', message };
      this.publish();
      return false;
    }
    // The kubelet's image back-off: 10 s doubling to 300 s (here timing.backoffMs, up to 30x).
    let backoff = h.timing.backoffMs;
    for (;;) {
      this.event('Normal', 'Pulling', `Pulling image "${image}"`, r);
      const started = this.clock.now();
      const result = await (h.images.inFlight(image) ?? h.images.pull(image, () => this.pull(image)));
      if (this.abort.signal.aborted) return false;
      // Another pod's pull of the same image was abandoned: pull again ourselves.
      if (result === undefined) continue;
      if (result.ok) {
        const waited = formatDuration(Math.trunc(this.clock.now() - started));
        const took = formatDuration(Math.trunc(Math.min(h.timing.pullMs, this.clock.now() - started)));
        this.event(
          'Normal',
          'Pulled',
          `Successfully pulled image "${image}" in ${took} (${waited} including waiting). Image size: ${imageSize(image)} bytes.`,
          r,
        );
        return true;
      }
      const error = result.error;
      this.event('Warning', 'Failed', `Failed to pull image "${image}": ${error}`, r);
      this.event('Warning', 'Failed', 'Error: ErrImagePull', r);
      r.waiting = { reason: 'ErrImagePull', message: error };
      this.publish();
      // The pod's next sync finds the image in back-off.
      const firstSync = Math.min(backoff / 2, 1000);
      if (!(await this.wait(firstSync))) return false;
      this.event('Normal', 'BackOff', `Back-off pulling image "${image}"`, r);
      this.event('Warning', 'Failed', 'Error: ImagePullBackOff', r);
      r.waiting = {
        reason: 'ImagePullBackOff',
        message: `Back-off pulling image "${image}": ErrImagePull: ${error}`,
      };
      this.publish();
      if (!(await this.wait(backoff - firstSync))) return false;
      backoff = Math.min(backoff * 2, h.timing.backoffMs * 30);
    }
  }

  /** One pull from the simulated registry; undefined when the pod went away meanwhile. */
  private async pull(image: string): Promise<PullResult | undefined> {
    if (!(await sleep(this.clock, this.host.timing.pullMs, this.abort.signal))) return undefined;
    return this.host.registry.resolve(image);
  }

  private killEvents(): void {
    for (const r of this.runs) {
      if (r.startedAt && !r.finishedAt)
        this.event('Normal', 'Killing', `Stopping container ${r.spec.name}`, r);
    }
  }

  /** Graceful deletion held by finalizers: stop the containers, report, delete the pod with grace 0. */
  private async terminate(): Promise<void> {
    this.killEvents();
    const grace = Math.min(
      (this.pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000,
      this.host.timing.startMs,
    );
    this.abort.abort();
    await this.running;
    await sleep(this.clock, grace, this.host.ctx.signal);
    const now = rfc3339(this.clock.now());
    for (const r of this.runs) if (r.startedAt && !r.finishedAt) r.finishedAt = now;
    this.ready = false;
    this.publish();
    await this.writing;
    const pods = this.host.ctx.kube.resource<Pod>('pods', this.pod.metadata?.namespace);
    await this.host.slots
      .run(() =>
        pods.delete(this.pod.metadata?.name ?? '', {
          gracePeriodSeconds: 0,
          preconditions: { uid: this.pod.metadata?.uid },
          signal: this.host.ctx.signal,
        }),
      )
      .catch((err: unknown) => {
        if (!isNotFound(err) && !this.host.ctx.signal.aborted)
          this.host.ctx.log(
            `kubelet ${this.host.nodeName}: deleting ${this.name}: ${(err as Error).message}`,
          );
      });
  }

  // --- status ---

  private condition(type: string, ok: boolean, reason?: string, message?: string): Condition {
    const status = ok ? 'True' : 'False';
    let t = this.transitions.get(type);
    if (!t || t.status !== status) {
      t = { status, at: rfc3339(this.clock.now()) };
      this.transitions.set(type, t);
    }
    const c: Condition = { type, status, lastProbeTime: null, lastTransitionTime: t.at };
    if (!ok && reason) Object.assign(c, { reason, message });
    return c;
  }

  private containerStatus(r: Run): Record<string, unknown> {
    const image = r.spec.image ?? '';
    const running = r.startedAt !== undefined && r.finishedAt === undefined;
    const state = r.waiting
      ? { waiting: r.waiting }
      : r.finishedAt
        ? { terminated: terminatedState(r) }
        : { running: { startedAt: r.startedAt } };
    return {
      name: r.spec.name,
      image: r.containerID ? normalizeImage(image) : image,
      imageID: r.containerID ? imageID(image) : '',
      ...(r.containerID ? { containerID: r.containerID } : {}),
      lastState: r.lastTerminated ? { terminated: r.lastTerminated } : {},
      ready: r.init ? Boolean(r.finishedAt) : running && this.ready,
      restartCount: r.restarts ?? 0,
      started: running,
      state,
    };
  }

  private buildStatus(): Record<string, unknown> {
    const inits = this.runs.filter((r) => r.init);
    const mains = this.runs.filter((r) => !r.init);
    const pendingInits = inits.filter((r) => !r.finishedAt).map((r) => r.spec.name);
    const unready = this.ready ? [] : mains.map((r) => r.spec.name);
    const sandbox =
      this.runs.some((r) => r.containerID) ||
      this.runs.some((r) => r.waiting?.reason.startsWith('Err') || r.waiting?.reason === 'ImagePullBackOff');
    if (sandbox) this.podIP ??= this.host.allocatePodIP();
    // A pod whose containers all completed is not ready for that reason (kubelet's PodCompleted).
    const notReadyWhy: [string, string | undefined] =
      this.phase === 'Succeeded'
        ? ['PodCompleted', undefined]
        : ['ContainersNotReady', `containers with unready status: [${unready.join(' ')}]`];
    const status: Record<string, unknown> = {
      phase: this.phase,
      conditions: [
        this.condition('PodReadyToStartContainers', sandbox),
        this.condition(
          'Initialized',
          pendingInits.length === 0,
          'ContainersNotInitialized',
          `containers with incomplete status: [${pendingInits.join(' ')}]`,
        ),
        this.condition('Ready', unready.length === 0, ...notReadyWhy),
        this.condition('ContainersReady', unready.length === 0, ...notReadyWhy),
        this.condition('PodScheduled', true),
      ],
      hostIP: this.host.hostIP,
      hostIPs: [{ ip: this.host.hostIP }],
      startTime: this.startTime,
      containerStatuses: mains.map((r) => this.containerStatus(r)),
    };
    if (inits.length > 0) status.initContainerStatuses = inits.map((r) => this.containerStatus(r));
    if (this.podIP) Object.assign(status, { podIP: this.podIP, podIPs: [{ ip: this.podIP }] });
    if (this.pod.status?.qosClass) status.qosClass = this.pod.status.qosClass;
    return status;
  }

  /** Asks for the current status to be written; only the latest pending one ever is. */
  private publish(): void {
    this.desired = this.buildStatus();
    this.writing ??= this.flush().finally(() => {
      this.writing = undefined;
    });
  }

  private async flush(): Promise<void> {
    const ctx = this.host.ctx;
    const pods = ctx.kube.resource<Pod>('pods', this.pod.metadata?.namespace);
    while (this.desired && !ctx.signal.aborted) {
      const status = this.desired;
      this.desired = undefined;
      // Tested uid: a status never lands on a new pod that took this one's name.
      const patch = [
        { op: 'test', path: '/metadata/uid', value: this.pod.metadata?.uid },
        { op: 'add', path: '/status', value: status },
      ];
      try {
        await this.host.slots.run(() =>
          pods.patch(this.pod.metadata?.name ?? '', patch, 'json', {
            subresource: 'status',
            signal: ctx.signal,
          }),
        );
      } catch (err) {
        // Gone, or replaced by a pod of the same name (the uid test failed): nothing to report to.
        if (ctx.signal.aborted || isNotFound(err) || isInvalid(err)) return;
        ctx.log(`kubelet ${this.host.nodeName}: status of ${this.name}: ${(err as Error).message}`);
        this.desired ??= status;
        if (!(await sleep(this.clock, 200, ctx.signal))) return;
      }
    }
  }
}
