/**
 * kube-apiserver's kubernetes service controller (pkg/controlplane/controller/kubernetesservice,
 * `UpdateKubernetesService` / `CreateOrUpdateMasterServiceIfNeeded`): the Service `kubernetes`
 * in `default` exists, at the first address of the service range, port 443 named `https` in
 * front of the server's own port, labelled `component: apiserver, provider: kubernetes`. Pods
 * find the API through it, and clients check for it (the e2e framework's suite setup reads its
 * cluster IP). Upstream it is looked at every 10 s; here it is created at start and again as
 * soon as the watch cache says it (or `default`) went.
 */

import type { Clock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { StatusError } from '../../protocol/status.js';
import type { Cacher } from '../cache/cacher.js';
import { KUBERNETES_SERVICE_IP } from '../kinds/core/service/allocation.js';
import { findByKind } from '../kinds/served/registry.js';
import type { ResourceKind } from '../kinds/types.js';
import type { ObjectStorage } from '../registry/object-storage.js';
import { WorkLoop } from './work-loop.js';

const NAMESPACE = 'default';
const NAME = 'kubernetes';

/** The Service as kube-apiserver creates it, in front of `port`. */
export function kubernetesService(port: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: NAME,
      namespace: NAMESPACE,
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: port }],
      clusterIP: KUBERNETES_SERVICE_IP,
      clusterIPs: [KUBERNETES_SERVICE_IP],
      type: 'ClusterIP',
      sessionAffinity: 'None',
    },
  };
}

/** What the controller works with. */
export interface KubernetesServiceDeps {
  objects: ObjectStorage;
  cacher: Cacher;
  clock: Clock;
  log: (message: string) => void;
}

/** Keeps `default/kubernetes` in existence while the server runs. */
export class KubernetesServiceController {
  private readonly services: ResourceKind = findByKind('v1', 'Service')!;
  private readonly loop: WorkLoop;
  private unsubscribe: (() => void) | undefined;
  private port = 0;

  constructor(private readonly deps: KubernetesServiceDeps) {
    this.loop = new WorkLoop({
      name: 'kubernetes-service',
      clock: deps.clock,
      sync: () => this.ensure(),
      log: deps.log,
      baseDelayMs: 100,
      maxDelayMs: 10_000,
    });
  }

  /** Creates the Service for the server's own `port` when missing, and follows the cache. */
  async start(port: number): Promise<void> {
    this.port = port;
    try {
      await this.ensure();
    } catch (err) {
      // Upstream logs and tries again on its next period: a start never fails for it.
      this.deps.log(`kubernetes service: ${(err as Error).message}; retrying`);
      this.loop.add(NAME);
    }
    const stopListening = this.deps.cacher.listen((kind, event) => {
      const meta = event.object.metadata ?? {};
      const serviceGone =
        event.type === 'DELETED' &&
        kind === this.services &&
        meta.namespace === NAMESPACE &&
        meta.name === NAME;
      const defaultBack =
        event.type === 'ADDED' &&
        kind.group === '' &&
        kind.plural === 'namespaces' &&
        meta.name === NAMESPACE;
      if (serviceGone || defaultBack) this.loop.add(NAME);
    });
    // A refill replaced the caches without saying what changed between.
    const stopRefills = this.deps.cacher.onFill(() => this.loop.add(NAME));
    this.unsubscribe = () => {
      stopListening();
      stopRefills();
    };
    this.loop.start();
  }

  /** Resolves when nothing is queued or under way. */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  /** Stops following; a creation under way finishes. */
  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.loop.stop();
  }

  /** Creates it when `default` exists and it does not; another server's creation wins a race. */
  async ensure(): Promise<undefined> {
    if (this.port === 0) return undefined;
    if (this.deps.cacher.cached(this.services, NAMESPACE, NAME)) return undefined;
    if (!this.deps.cacher.cached(findByKind('v1', 'Namespace')!, undefined, NAMESPACE)) return undefined;
    try {
      await this.deps.objects.create(this.services, NAMESPACE, kubernetesService(this.port), {
        fieldManager: { manager: 'kube-apiserver' },
      });
    } catch (err) {
      const reason = err instanceof StatusError ? err.status.reason : undefined;
      // Already there (another server, or a cache a moment behind), or `default` is going away.
      if (reason === 'AlreadyExists' || reason === 'Forbidden') return undefined;
      // Another server over the same etcd created it first: its address is then taken, which the
      // allocator answers before the key's existence (422 "provided IP is already allocated").
      const exists = await this.deps.objects.get(this.services, NAMESPACE, NAME).then(
        () => true,
        () => false,
      );
      if (!exists) throw err;
    }
    return undefined;
  }
}
