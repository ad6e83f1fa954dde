/**
 * The operator's Kubernetes access through watchmark: a KubeClient of its
 * own (its own connection and User-Agent) and shared informers for Websites
 * and Deployments across all namespaces. watchmark's informers resume after a
 * dropped watch from the last resourceVersion and relist after a 410 by
 * themselves, so nothing here restarts anything.
 */
import { type Informer, type KubeClient, type KubeObject, StatusError } from '../../../src/index.js';
import { ApiError, type KubeEvents, type OperatorKube } from './kube.js';
import { controllerOf } from './reconcile.js';
import { type ConfigMap, type Deployment, GROUP, KIND, PLURAL, VERSION, type Website } from './types.js';

const WEBSITES = { group: GROUP, version: VERSION, kind: KIND, plural: PLURAL, namespaced: true };
const DEPLOYMENTS = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  namespaced: true,
};
const CONFIGMAPS = { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true };
const NAMESPACES = { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false };

/** Runs `call`, turning the server's Status into an {@link ApiError}. */
async function api<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof StatusError) throw new ApiError(err.code, err.message);
    throw err;
  }
}

const asKube = <T>(o: T) => o as unknown as KubeObject;

export class WatchmarkKube implements OperatorKube {
  readonly name = 'watchmark';
  private readonly kube: KubeClient;
  private websites: Informer<KubeObject> | undefined;
  private deployments: Informer<KubeObject> | undefined;
  private readonly unsubscribe: Array<() => void> = [];

  /** `kube` becomes the operator's: {@link WatchmarkKube.stop} closes it. */
  constructor(kube: KubeClient) {
    this.kube = kube;
  }

  async start(events: KubeEvents): Promise<void> {
    const all = { allNamespaces: true };
    this.websites = this.kube.sharedInformer(WEBSITES, all);
    this.deployments = this.kube.sharedInformer(DEPLOYMENTS, all);
    const website = (o: KubeObject) => events.website(`${o.metadata?.namespace}/${o.metadata?.name}`);
    const deployment = (o: KubeObject) => {
      const owner = controllerOf(o as unknown as Deployment);
      const mine = owner?.kind === KIND && owner.apiVersion === `${GROUP}/${VERSION}`;
      events.deployment(mine ? `${o.metadata?.namespace}/${owner.name}` : undefined);
    };
    this.unsubscribe.push(
      this.websites.on({ add: website, update: (_, o) => website(o), delete: website }),
      this.deployments.on({ add: deployment, update: (_, o) => deployment(o), delete: deployment }),
    );
    await Promise.all([this.websites.synced(), this.deployments.synced()]);
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    await this.kube.close();
  }

  website(namespace: string, name: string): Website | undefined {
    return this.websites?.get(`${namespace}/${name}`) as Website | undefined;
  }

  deployment(namespace: string, name: string): Deployment | undefined {
    return this.deployments?.get(`${namespace}/${name}`) as Deployment | undefined;
  }

  createDeployment(d: Deployment): Promise<Deployment> {
    return api(() =>
      this.kube.resource(DEPLOYMENTS, d.metadata.namespace).create(asKube(d)),
    ) as Promise<Deployment>;
  }

  replaceDeployment(d: Deployment): Promise<Deployment> {
    return api(() =>
      this.kube.resource(DEPLOYMENTS, d.metadata.namespace).update(asKube(d)),
    ) as Promise<Deployment>;
  }

  replaceWebsite(w: Website): Promise<Website> {
    return api(() =>
      this.kube.resource(WEBSITES, w.metadata.namespace).update(asKube(w)),
    ) as unknown as Promise<Website>;
  }

  replaceWebsiteStatus(w: Website): Promise<Website> {
    return api(() =>
      this.kube.resource(WEBSITES, w.metadata.namespace).updateStatus(asKube(w)),
    ) as unknown as Promise<Website>;
  }

  async ensureNamespace(name: string): Promise<void> {
    try {
      await api(() => this.kube.resource(NAMESPACES).create({ metadata: { name } }));
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }

  getConfigMap(namespace: string, name: string): Promise<ConfigMap | undefined> {
    return api(() => this.kube.resource(CONFIGMAPS, namespace).find(name)) as Promise<ConfigMap | undefined>;
  }

  createConfigMap(cm: ConfigMap): Promise<ConfigMap> {
    return api(() =>
      this.kube.resource(CONFIGMAPS, cm.metadata.namespace).create(asKube(cm)),
    ) as Promise<ConfigMap>;
  }

  replaceConfigMap(cm: ConfigMap): Promise<ConfigMap> {
    return api(() =>
      this.kube.resource(CONFIGMAPS, cm.metadata.namespace).update(asKube(cm)),
    ) as Promise<ConfigMap>;
  }

  async deleteConfigMap(namespace: string, name: string): Promise<boolean> {
    try {
      await api(() => this.kube.resource(CONFIGMAPS, namespace).delete(name));
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return false;
      throw err;
    }
  }
}
