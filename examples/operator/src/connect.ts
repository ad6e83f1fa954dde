/**
 * The two ways the operator reaches Kubernetes, each from a kubeconfig file
 * (undefined: the usual places, KUBECONFIG then ~/.kube/config).
 */
import * as k8s from '@kubernetes/client-node';
import { KubeClient } from '../../../src/index.js';
import { ClientNodeKube } from './client-node-kube.js';
import type { OperatorKube } from './kube.js';
import { WatchmarkKube } from './watchmark-kube.js';

/** What the operator's requests are recorded as (audit logs, watchmark's request record). */
export const USER_AGENT = 'website-operator';

export type Implementation = 'watchmark' | 'client-node';
export const IMPLEMENTATIONS: readonly Implementation[] = ['watchmark', 'client-node'];

/** watchmark's KubeClient and informers. */
export async function connectWatchmark(kubeconfig?: string): Promise<OperatorKube> {
  // qps 0: no client-side throttling; a controller's burst of writes is the server's to limit.
  return new WatchmarkKube(
    await KubeClient.load({ kubeconfig, qps: 0, userAgent: `${USER_AGENT}/watchmark` }),
  );
}

/** @kubernetes/client-node's KubeConfig, informers and typed APIs. */
export function connectClientNode(kubeconfig?: string | k8s.KubeConfig): OperatorKube {
  let kc: k8s.KubeConfig;
  if (kubeconfig instanceof k8s.KubeConfig) kc = kubeconfig;
  else {
    kc = new k8s.KubeConfig();
    if (kubeconfig) kc.loadFromFile(kubeconfig);
    else kc.loadFromDefault();
  }
  return new ClientNodeKube(kc);
}

/** The implementation named. */
export function connect(impl: Implementation, kubeconfig?: string): Promise<OperatorKube> {
  return impl === 'watchmark' ? connectWatchmark(kubeconfig) : Promise.resolve(connectClientNode(kubeconfig));
}
