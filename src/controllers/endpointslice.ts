/**
 * kube-controller-manager's EndpointSlice controller (pkg/controller/endpointslice, with the
 * k8s.io/endpointslice reconciler; `endpointslice-controller.k8s.io`): for every Service with a
 * selector, EndpointSlices of its address family holding an endpoint per pod it picks (the pod's
 * addresses; ready, serving and terminating conditions; node, zone, hostname; a reference to the
 * pod), one slice per set of resolved ports (in upstream's hash order), named `<service>-<random>` (generateName), owned by
 * the Service, labelled with its labels, `kubernetes.io/service-name` and
 * `endpointslice.kubernetes.io/managed-by`, with the last-change trigger time. A Service picking
 * no pod keeps one empty placeholder slice. Slices of a deleted Service go with it (the garbage
 * collector follows their owner reference).
 *
 * Not as upstream: a slice holds up to 100 endpoints and no more are split into others; the
 * topology hints and traffic distribution are not computed; no events are recorded.
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
  servicesPicking,
  shouldPodBeInEndpoints,
  shouldSetHostname,
  TRIGGER_TIME_ANNOTATION,
  TriggerTimeTracker,
} from './endpoints-pods.js';
import { fnv128a } from './endpoints-repack.js';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const SLICE_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const SLICE_CONTROLLER_NAME = 'endpointslice-controller.k8s.io';

interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

interface Slice extends KubeObject {
  addressType?: string;
  endpoints?: Array<Record<string, unknown>> | null;
  ports?: SlicePort[] | null;
}

interface Node extends KubeObject {}

/** The EndpointSlice controller: {@link EndpointSliceController.start}, {@link EndpointSliceController.stop}. */
export class EndpointSliceController {
  private readonly queue: WorkQueue;
  private readonly services: Informer<Service>;
  private readonly pods: Informer<Pod>;
  private readonly slices: Informer<Slice>;
  private readonly nodes: Informer<Node>;
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
    this.slices = kube.informer<Slice>('endpointslices.discovery.k8s.io', { allNamespaces: true });
    this.nodes = kube.informer<Node>('nodes');
    const key = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
    this.services.on({
      add: (o) => this.queue.add(key(o)),
      update: (_, o) => this.queue.add(key(o)),
      delete: (o) => this.queue.add(key(o)),
    });
    // A slice of ours changed or deleted by someone else: its Service is synced again.
    const slice = (o: Slice) => {
      const service = o.metadata?.labels?.[SERVICE_NAME_LABEL];
      if (service && o.metadata?.labels?.[SLICE_MANAGED_BY] === SLICE_CONTROLLER_NAME)
        this.queue.add(`${o.metadata?.namespace}/${service}`);
    };
    this.slices.on({ update: (_, o) => slice(o), delete: slice });
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
    for (const i of [this.services, this.pods, this.slices, this.nodes]) i.start();
    await Promise.all([this.services, this.pods, this.slices, this.nodes].map((i) => i.synced()));
    for (let i = 0; i < workers; i++) this.workers.push(this.work());
  }

  stats(): { syncs: number; failures: number } {
    return { syncs: this.syncs, failures: this.failures };
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await Promise.all([
      ...this.workers,
      ...[this.services, this.pods, this.slices, this.nodes].map((i) => i.stop()),
    ]);
  }

  private work(): Promise<void> {
    return runQueueWorker(this.queue, (key) => this.sync(key), {
      synced: () => {
        this.syncs++;
      },
      failed: (key, err) => {
        this.failures++;
        if (!isConflict(err)) this.log(`endpointslice-controller: syncing ${key}: ${(err as Error).message}`);
      },
    });
  }

  /** `syncService` and the reconciler's `reconcile`, for the Service's first address family. */
  private async sync(key: string): Promise<void> {
    const [namespace] = key.split('/') as [string, string];
    const service = this.services.get(key);
    if (!service) {
      this.triggers.delete(key);
      return;
    }
    if (service.spec?.type === 'ExternalName' || !service.spec?.selector) return;
    const family = (service.spec.ipFamilies ?? [])[0] === 'IPv6' ? 'IPv6' : 'IPv4';
    const pods = this.pods
      .list()
      .filter((p) => p.metadata?.namespace === namespace && selects(service, p.metadata?.labels));
    const triggerTime = this.triggers.compute(key, service, pods);
    // The desired endpoints, grouped by the ports they resolve to.
    const groups = new Map<string, { ports: SlicePort[]; endpoints: Array<Record<string, unknown>> }>();
    const missingNodes: string[] = [];
    for (const pod of pods) {
      if (!shouldPodBeInEndpoints(pod, true)) continue;
      // reconciler.go: a pod on a Node that does not exist (or on none) is left out, and the
      // Service tried again later, unless not-ready addresses are published anyway.
      const nodeName = pod.spec?.nodeName ?? '';
      if (!this.nodes.get(nodeName) && service.spec.publishNotReadyAddresses !== true) {
        missingNodes.push(
          `skipping Pod ${pod.metadata?.name} for Service ${key}: Node ${nodeName} Not Found`,
        );
        continue;
      }
      const endpoint = this.endpointOf(pod, service, family);
      if (endpoint === undefined) continue;
      const ports = portsOf(service, pod);
      const pk = canonical(ports);
      const group = groups.get(pk) ?? { ports, endpoints: [] };
      group.endpoints.push(endpoint);
      groups.set(pk, group);
    }
    const owned = this.slices
      .list()
      .filter(
        (s) =>
          s.metadata?.namespace === namespace &&
          s.metadata?.labels?.[SLICE_MANAGED_BY] === SLICE_CONTROLLER_NAME &&
          (s.metadata?.ownerReferences ?? []).some(
            (r: { uid?: string; kind?: string }) => r.uid === service.metadata?.uid && r.kind === 'Service',
          ),
      );
    const labels = sliceLabels(service);
    const client = this.kube.resource<Slice>('endpointslices.discovery.k8s.io', namespace);
    const unused = owned.filter((s) => s.addressType === family);
    const stale = owned.filter((s) => s.addressType !== family);
    // A Service picking nothing keeps one placeholder slice without ports or endpoints.
    if (groups.size === 0) groups.set(canonical([]), { ports: [], endpoints: [] });
    // Each port set to the slice that has it; the rest take over a slice left without one
    // (finalize: a create and a delete become an update), else a new slice.
    const matched = [...groups].map(([pk, group]) => {
      const i = unused.findIndex((s) => canonical(s.ports ?? []) === pk);
      return { group, existing: i >= 0 ? unused.splice(i, 1)[0] : undefined };
    });
    for (const m of matched) if (!m.existing) m.existing = unused.shift();
    for (const { group, existing } of matched) {
      if (existing && sameEndpoints(existing, group.endpoints) && sameLabels(existing, labels)) continue;
      const annotations = { ...(existing?.metadata?.annotations ?? {}) } as Record<string, string>;
      if (triggerTime > 0) annotations[TRIGGER_TIME_ANNOTATION] = rfc3339Nano(triggerTime);
      else delete annotations[TRIGGER_TIME_ANNOTATION];
      const body: Slice = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          ...(existing?.metadata ?? {
            generateName: `${service.metadata?.name}-`,
            ownerReferences: [
              {
                apiVersion: 'v1',
                kind: 'Service',
                name: service.metadata?.name ?? '',
                uid: service.metadata?.uid ?? '',
                controller: true,
                blockOwnerDeletion: true,
              },
            ],
          }),
          labels,
          annotations,
        },
        addressType: family,
        // kube-controller-manager writes protobuf, where an empty list is none: stored as null.
        endpoints: group.endpoints.length > 0 ? group.endpoints : null,
        ports: group.ports.length > 0 ? group.ports : null,
      };
      if (Object.keys(annotations).length === 0) delete body.metadata!.annotations;
      if (existing) await client.update(body);
      else await this.create(client, body);
    }
    for (const s of [...unused, ...stale]) {
      await client.delete(s.metadata?.name ?? '').catch((err: unknown) => {
        if (!(err instanceof StatusError && err.code === 404)) throw err;
      });
    }
    if (missingNodes.length > 0) throw new Error(missingNodes.join('; '));
  }

  private async create(client: ReturnType<KubeClient['resource']>, body: Slice): Promise<void> {
    try {
      await client.create(body);
    } catch (err) {
      // A namespace being deleted takes no new objects: nothing to retry.
      const terminating =
        err instanceof StatusError &&
        err.code === 403 &&
        (err.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
      if (!terminating) throw err;
    }
  }

  /** `podToEndpoint`, undefined when the pod has no address of the family. */
  private endpointOf(
    pod: Pod,
    service: Service,
    family: 'IPv4' | 'IPv6',
  ): Record<string, unknown> | undefined {
    const addresses = podAddresses(pod, family);
    if (addresses.length === 0) return undefined;
    const serving = isPodReady(pod);
    const terminating = !!pod.metadata?.deletionTimestamp;
    const nodeName = pod.spec?.nodeName ?? '';
    const zone = nodeName
      ? this.nodes.get(nodeName)?.metadata?.labels?.['topology.kubernetes.io/zone']
      : undefined;
    return {
      addresses,
      conditions: {
        ready: service.spec?.publishNotReadyAddresses === true || (serving && !terminating),
        serving,
        terminating,
      },
      ...(shouldSetHostname(pod, service) ? { hostname: pod.spec?.hostname } : {}),
      targetRef: {
        kind: 'Pod',
        namespace: pod.metadata?.namespace,
        name: pod.metadata?.name,
        uid: pod.metadata?.uid,
      },
      ...(nodeName ? { nodeName } : {}),
      ...(zone ? { zone } : {}),
    };
  }
}

/** `getEndpointPorts`: each Service port the pod resolves. */
function portsOf(service: Service, pod: Pod): SlicePort[] {
  const out: SlicePort[] = [];
  for (const sp of service.spec?.ports ?? []) {
    const port = findPort(pod, sp);
    if (port === undefined) continue;
    out.push({
      name: sp.name ?? '',
      port,
      protocol: sp.protocol ?? 'TCP',
      ...(sp.appProtocol !== undefined ? { appProtocol: sp.appProtocol } : {}),
    });
  }
  // util/controller_utils.go `NewPortMapKey` sorts them in place (`portsInOrder`): by the
  // FNV-128a hash of each port's dump.ForHash printing.
  const printed = (p: SlicePort) =>
    `(v1.EndpointPort){Name:(*string)${p.name} Protocol:(*v1.Protocol)${p.protocol} Port:(*int32)${p.port} AppProtocol:(*string)${p.appProtocol ?? '<nil>'}}`;
  const hashes = new Map(out.map((p) => [p, fnv128a(printed(p))]));
  return out.sort((a, b) => (hashes.get(a)! < hashes.get(b)! ? -1 : hashes.get(a)! > hashes.get(b)! ? 1 : 0));
}

/** `setEndpointSliceLabels`: the Service's labels but the reserved ones, the headless mark, the name and manager. */
function sliceLabels(service: Service): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [k, v] of Object.entries(service.metadata?.labels ?? {})) {
    if (k !== SERVICE_NAME_LABEL && k !== SLICE_MANAGED_BY && k !== HEADLESS_LABEL) labels[k] = v as string;
  }
  if (!isServiceIPSet(service)) labels[HEADLESS_LABEL] = '';
  labels[SERVICE_NAME_LABEL] = service.metadata?.name ?? '';
  labels[SLICE_MANAGED_BY] = SLICE_CONTROLLER_NAME;
  return labels;
}

function sameLabels(slice: Slice, labels: Record<string, string>): boolean {
  return canonical(slice.metadata?.labels ?? {}) === canonical(labels);
}

/** The endpoints as a set: their order in a slice is no change. */
function sameEndpoints(slice: Slice, endpoints: ReadonlyArray<Record<string, unknown>>): boolean {
  const key = (list: ReadonlyArray<Record<string, unknown>>) => list.map((e) => canonical(e)).sort();
  return canonical(key(slice.endpoints ?? [])) === canonical(key(endpoints));
}
