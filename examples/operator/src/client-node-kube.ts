/**
 * The operator's Kubernetes access through @kubernetes/client-node: its
 * informers (makeInformer) over Websites and Deployments in all namespaces,
 * CustomObjectsApi for Websites, AppsV1Api and CoreV1Api for the rest.
 *
 * client-node's informer stops on an error (a watch that fails, a list that
 * fails) and, by its documentation, the program restarts it: done here with
 * a short backoff. A 410 Gone it handles itself (relist).
 */
import * as k8s from '@kubernetes/client-node';
import { ApiError, type KubeEvents, type OperatorKube } from './kube.js';
import { controllerOf } from './reconcile.js';
import { type ConfigMap, type Deployment, GROUP, KIND, PLURAL, VERSION, type Website } from './types.js';

/** Runs `call`, turning client-node's ApiException into an {@link ApiError}. */
async function api<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof k8s.ApiException) throw new ApiError(err.code, String(err.message).split('\n')[0]);
    throw err;
  }
}

const RESTART_MS = { first: 10, max: 1_000 };

export class ClientNodeKube implements OperatorKube {
  readonly name = 'client-node';
  private readonly custom: k8s.CustomObjectsApi;
  private readonly apps: k8s.AppsV1Api;
  private readonly core: k8s.CoreV1Api;
  private websites: k8s.Informer<k8s.KubernetesObject> & k8s.ObjectCache<k8s.KubernetesObject>;
  private deployments: k8s.Informer<k8s.V1Deployment> & k8s.ObjectCache<k8s.V1Deployment>;
  private readonly restarts = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(kc: k8s.KubeConfig) {
    this.custom = kc.makeApiClient(k8s.CustomObjectsApi);
    this.apps = kc.makeApiClient(k8s.AppsV1Api);
    this.core = kc.makeApiClient(k8s.CoreV1Api);
    this.websites = k8s.makeInformer(
      kc,
      `/apis/${GROUP}/${VERSION}/${PLURAL}`,
      () =>
        this.custom.listClusterCustomObject({ group: GROUP, version: VERSION, plural: PLURAL }) as Promise<
          k8s.KubernetesListObject<k8s.KubernetesObject>
        >,
    );
    this.deployments = k8s.makeInformer(kc, '/apis/apps/v1/deployments', () =>
      this.apps.listDeploymentForAllNamespaces(),
    );
  }

  async start(events: KubeEvents): Promise<void> {
    const website = (o: k8s.KubernetesObject) =>
      events.website(`${o.metadata?.namespace}/${o.metadata?.name}`);
    const deployment = (o: k8s.V1Deployment) => {
      const owner = controllerOf(o as Deployment);
      const mine = owner?.kind === KIND && owner.apiVersion === `${GROUP}/${VERSION}`;
      events.deployment(mine ? `${o.metadata?.namespace}/${owner.name}` : undefined);
    };
    this.websites.on('change', website);
    this.deployments.on('change', deployment);
    this.restartOnError(this.websites);
    this.restartOnError(this.deployments);
    // start() resolves once the first list is in the cache and the watch is open.
    await Promise.all([this.websites.start(), this.deployments.start()]);
  }

  private restartOnError(informer: k8s.Informer<never> | k8s.Informer<k8s.V1Deployment>): void {
    let delay = RESTART_MS.first;
    informer.on('connect', () => {
      delay = RESTART_MS.first;
    });
    informer.on('error', () => {
      if (this.stopped) return;
      const timer = setTimeout(() => {
        this.restarts.delete(timer);
        if (!this.stopped) void informer.start();
      }, delay);
      this.restarts.add(timer);
      delay = Math.min(delay * 2, RESTART_MS.max);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.restarts) clearTimeout(t);
    this.restarts.clear();
    await Promise.all([this.websites.stop(), this.deployments.stop()]);
  }

  website(namespace: string, name: string): Website | undefined {
    return this.websites.get(name, namespace) as Website | undefined;
  }

  deployment(namespace: string, name: string): Deployment | undefined {
    return this.deployments.get(name, namespace) as Deployment | undefined;
  }

  createDeployment(d: Deployment): Promise<Deployment> {
    return api(() =>
      this.apps.createNamespacedDeployment({
        namespace: d.metadata.namespace ?? '',
        body: d as k8s.V1Deployment,
      }),
    ) as Promise<Deployment>;
  }

  replaceDeployment(d: Deployment): Promise<Deployment> {
    return api(() =>
      this.apps.replaceNamespacedDeployment({
        name: d.metadata.name ?? '',
        namespace: d.metadata.namespace ?? '',
        body: d as k8s.V1Deployment,
      }),
    ) as Promise<Deployment>;
  }

  replaceWebsite(w: Website): Promise<Website> {
    return api(() => this.custom.replaceNamespacedCustomObject(this.websiteParams(w))) as Promise<Website>;
  }

  replaceWebsiteStatus(w: Website): Promise<Website> {
    return api(() =>
      this.custom.replaceNamespacedCustomObjectStatus(this.websiteParams(w)),
    ) as Promise<Website>;
  }

  private websiteParams(w: Website) {
    return {
      group: GROUP,
      version: VERSION,
      plural: PLURAL,
      namespace: w.metadata.namespace ?? '',
      name: w.metadata.name ?? '',
      body: w,
    };
  }

  async ensureNamespace(name: string): Promise<void> {
    try {
      await api(() => this.core.createNamespace({ body: { metadata: { name } } }));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }

  async getConfigMap(namespace: string, name: string): Promise<ConfigMap | undefined> {
    try {
      return (await api(() => this.core.readNamespacedConfigMap({ name, namespace }))) as ConfigMap;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  createConfigMap(cm: ConfigMap): Promise<ConfigMap> {
    return api(() =>
      this.core.createNamespacedConfigMap({
        namespace: cm.metadata.namespace ?? '',
        body: cm as k8s.V1ConfigMap,
      }),
    ) as Promise<ConfigMap>;
  }

  replaceConfigMap(cm: ConfigMap): Promise<ConfigMap> {
    return api(() =>
      this.core.replaceNamespacedConfigMap({
        name: cm.metadata.name ?? '',
        namespace: cm.metadata.namespace ?? '',
        body: cm as k8s.V1ConfigMap,
      }),
    ) as Promise<ConfigMap>;
  }

  async deleteConfigMap(namespace: string, name: string): Promise<boolean> {
    try {
      await api(() => this.core.deleteNamespacedConfigMap({ name, namespace }));
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  }
}
