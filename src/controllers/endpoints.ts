/**
 * kube-controller-manager's endpoints controller (pkg/controller/endpoint/endpoints_controller.go,
 * `endpoint-controller`): the Endpoints of every Service with a selector, from the pods it picks.
 * A Ready pod's IP (of the Service's family) is an address, another's a not-ready address
 * (`publishNotReadyAddresses` makes them all ready), each with the pod's node and a reference to
 * it, on the container ports the Service ports target (a named target resolved per pod); the
 * subsets repacked by port set (pkg/api/v1/endpoints `RepackSubsets`), the Service's labels with
 * `endpoints.kubernetes.io/managed-by` (and the headless label), the last-change trigger time,
 * and over 1000 addresses the `endpoints.kubernetes.io/over-capacity: truncated` annotation.
 * A Service deleted takes its Endpoints with it; Endpoints deleted are made again.
 *
 * Not as upstream: subsets with different port sets are ordered by their first port and address
 * rather than by the hash of their whole printing (a subset's ports are in upstream's order); no
 * events are recorded.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import type { Clock } from '../protocol/clock.js';
import type { KubeObject } from '../protocol/events.js';
import { isConflict, runQueueWorker } from '../protocol/queue-worker.js';
import { StatusError } from '../protocol/status.js';
import { WorkQueue } from '../protocol/workqueue.js';
import {
  canonical,
  findPort,
  HEADLESS_LABEL,
  isPodReady,
  isServiceIPSet,
  type Pod,
  podAddresses,
  rfc3339Nano,
  type Service,
  selects,
  serviceFamily,
  servicesPicking,
  shouldPodBeInEndpoints,
  shouldSetHostname,
  TRIGGER_TIME_ANNOTATION,
  TriggerTimeTracker,
} from './endpoints-pods.js';
import {
  type EndpointAddress,
  type EndpointPort,
  type EndpointSubset,
  repackSubsets,
} from './endpoints-repack.js';

/** `endpoints.kubernetes.io/managed-by`, and this controller's value of it. */
export const ENDPOINTS_MANAGED_BY = 'endpoints.kubernetes.io/managed-by';
export const ENDPOINTS_CONTROLLER_NAME = 'endpoint-controller';
const OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
const MAX_CAPACITY = 1000;

interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

/** The endpoints controller: {@link EndpointsController.start}, {@link EndpointsController.stop}. */
export class EndpointsController {
  private readonly queue: WorkQueue;
  private readonly services: Informer<Service>;
  private readonly pods: Informer<Pod>;
  private readonly endpoints: Informer<Endpoints>;
  private readonly triggers = new TriggerTimeTracker();
  private readonly workers: Promise<void>[] = [];
  private syncs = 0;
  private failures = 0;

  constructor(
    private readonly kube: KubeClient,
    clock: Clock,
    private readonly log: (line: string) => void,
  ) {
    this.queue = new WorkQueue(clock);
    this.services = kube.informer<Service>('services', { allNamespaces: true });
    this.pods = kube.informer<Pod>('pods', { allNamespaces: true });
    this.endpoints = kube.informer<Endpoints>('endpoints', { allNamespaces: true });
    const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
    this.services.on({
      add: (o) => this.queue.add(key(o)),
      update: (_, o) => this.queue.add(key(o)),
      delete: (o) => this.queue.add(key(o)),
    });
    this.endpoints.on({ delete: (o) => this.queue.add(key(o)) });
    const pod = (old: Pod | undefined, now: Pod) => {
      const list = this.services.list();
      for (const k of servicesPicking(
        list,
        now.metadata?.namespace,
        now.metadata?.labels,
        old?.metadata?.labels,
      ))
        this.queue.add(k);
    };
    this.pods.on({
      add: (o) => pod(undefined, o),
      update: (old, o) => pod(old, o),
      delete: (o) => pod(undefined, o),
    });
  }

  /** Starts the informers and, once they listed, the workers (kube-controller-manager runs 5). */
  async start(workers = 5): Promise<void> {
    this.services.start();
    this.pods.start();
    this.endpoints.start();
    await Promise.all([this.services.synced(), this.pods.synced(), this.endpoints.synced()]);
    // `checkLeftoverEndpoints`: Endpoints of Services gone while nobody watched.
    for (const ep of this.endpoints.list()) this.queue.add(`${ep.metadata?.namespace}/${ep.metadata?.name}`);
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([...this.workers, this.services.stop(), this.pods.stop(), this.endpoints.stop()]);
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.sync(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        if (!isConflict(err)) this.log(`endpoints-controller: syncing ${key}: ${(err as Error).message}`);
      },
    });
  }

  /** `syncService`. */
  private async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const client = this.kube.resource<Endpoints>('endpoints', namespace);
    const service = this.services.get(key);
    if (!service) {
      // Upstream deletes whatever Endpoints of that name there are, not only its own; the
      // leader-election records it keeps (an annotation) are left alone.
      const current = this.endpoints.get(key);
      if (current && !current.metadata?.annotations?.['control-plane.alpha.kubernetes.io/leader']) {
        await client.delete(name).catch((err: unknown) => {
          if (!(err instanceof StatusError && err.code === 404)) throw err;
        });
      }
      this.triggers.delete(key);
      return;
    }
    if (service.spec?.type === 'ExternalName' || !service.spec?.selector) return;
    const pods = this.pods
      .list()
      .filter((p) => p.metadata?.namespace === namespace && selects(service, p.metadata?.labels));
    const triggerTime = this.triggers.compute(key, service, pods);
    const subsets = repackSubsets(this.subsetsOf(service, pods));
    const current = this.endpoints.get(key);
    const labels = { ...(service.metadata?.labels ?? {}) } as Record<string, string>;
    if (
      current &&
      canonical(repackSubsets(current.subsets ?? [])) === canonical(subsets) &&
      labelsCorrect(current.metadata?.labels ?? {}, labels) &&
      capacityAnnotationCorrect(current)
    )
      return;
    const annotations: Record<string, string> = { ...(current?.metadata?.annotations ?? {}) };
    if (triggerTime > 0) annotations[TRIGGER_TIME_ANNOTATION] = rfc3339Nano(triggerTime);
    else delete annotations[TRIGGER_TIME_ANNOTATION];
    const truncated = truncate(subsets);
    if (truncated) annotations[OVER_CAPACITY] = 'truncated';
    else delete annotations[OVER_CAPACITY];
    if (isServiceIPSet(service)) delete labels[HEADLESS_LABEL];
    else labels[HEADLESS_LABEL] = '';
    labels[ENDPOINTS_MANAGED_BY] = ENDPOINTS_CONTROLLER_NAME;
    const metadata = {
      ...(current?.metadata ?? { name }),
      labels,
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
    };
    if (Object.keys(annotations).length === 0) delete metadata.annotations;
    const next: Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata,
      ...(subsets.length > 0 ? { subsets } : {}),
    };
    if (!current) {
      try {
        await client.create(next);
      } catch (err) {
        // A namespace being deleted takes no new objects: nothing to retry.
        if (err instanceof StatusError && err.code === 403 && isNamespaceTerminating(err)) return;
        throw err;
      }
      return;
    }
    await client.update(next);
  }

  /** The subsets before repacking: one per pod and Service port (`addEndpointSubset`). */
  private subsetsOf(service: Service, pods: readonly Pod[]): EndpointSubset[] {
    const subsets: EndpointSubset[] = [];
    const publishNotReady = service.spec?.publishNotReadyAddresses === true;
    const ports = service.spec?.ports ?? [];
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
      const ip = podAddresses(pod, serviceFamily(service, pod))[0];
      if (ip === undefined) continue;
      const address: EndpointAddress = {
        ip,
        ...(shouldSetHostname(pod, service) ? { hostname: pod.spec?.hostname } : {}),
        nodeName: pod.spec?.nodeName ?? '',
        targetRef: {
          kind: 'Pod',
          namespace: pod.metadata?.namespace,
          name: pod.metadata?.name,
          uid: pod.metadata?.uid,
        },
      };
      const ready = publishNotReady || isPodReady(pod);
      const add = (port: EndpointPort | undefined) =>
        subsets.push({
          ...(ready ? { addresses: [address] } : { notReadyAddresses: [address] }),
          ...(port ? { ports: [port] } : {}),
        });
      if (ports.length === 0) {
        if (service.spec?.clusterIP === 'None') add(undefined);
        continue;
      }
      for (const sp of ports) {
        const number = findPort(pod, sp);
        if (number === undefined) continue;
        add({
          ...(sp.name ? { name: sp.name } : {}),
          port: number,
          protocol: sp.protocol ?? 'TCP',
          ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
        });
      }
    }
    return subsets;
  }
}

/** `labelsCorrectForEndpoints`: managed by this controller, and otherwise the Service's labels exactly. */
function labelsCorrect(current: Record<string, string>, service: Record<string, string>): boolean {
  if (current[ENDPOINTS_MANAGED_BY] !== ENDPOINTS_CONTROLLER_NAME) return false;
  let skipped = 0;
  for (const [k, v] of Object.entries(current)) {
    if (k === HEADLESS_LABEL || k === ENDPOINTS_MANAGED_BY) skipped++;
    else if (service[k] !== v) return false;
  }
  return Object.keys(service).length === Object.keys(current).length - skipped;
}

/** `capacityAnnotationSetCorrectly`. */
function capacityAnnotationCorrect(ep: Endpoints): boolean {
  let count = 0;
  for (const s of ep.subsets ?? []) count += (s.addresses ?? []).length + (s.notReadyAddresses ?? []).length;
  return count <= MAX_CAPACITY && ep.metadata?.annotations?.[OVER_CAPACITY] === undefined;
}

/** `truncateEndpoints`: at most 1000 addresses, not-ready ones dropped first, each subset its share. */
function truncate(subsets: EndpointSubset[]): boolean {
  let ready = 0;
  let notReady = 0;
  for (const s of subsets) {
    ready += (s.addresses ?? []).length;
    notReady += (s.notReadyAddresses ?? []).length;
  }
  if (ready + notReady <= MAX_CAPACITY) return false;
  const truncateReady = ready > MAX_CAPACITY;
  const max = truncateReady ? MAX_CAPACITY : MAX_CAPACITY - ready;
  const total = truncateReady ? ready : notReady;
  let room = max;
  for (const s of subsets) {
    const inSubset = (truncateReady ? s.addresses : s.notReadyAddresses) ?? [];
    const take = Math.min(Math.ceil((inSubset.length / total) * max), room);
    if (truncateReady) {
      s.addresses = inSubset.slice(0, take);
      delete s.notReadyAddresses;
      room -= s.addresses.length;
    } else {
      s.notReadyAddresses = inSubset.slice(0, take);
      room -= s.notReadyAddresses.length;
    }
  }
  return true;
}

function isNamespaceTerminating(err: StatusError): boolean {
  return (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}
