/**
 * The control plane's shared informers: one watch per resource for every
 * controller in the process (as kube-controller-manager's shared informer
 * factory), each with the indexes the controllers look things up by.
 */
import type { KubeClient } from '../client/client.js';
import type { Informer } from '../client/informer/informer.js';
import { findBuiltin, type ResourceType } from '../client/watch/resources.js';
import type { KubeObject } from '../protocol/events.js';
import { controllerIndex, type Deployment, type Node, type Pod, type ReplicaSet } from './core/objects.js';

/** The control plane's informers. */
export interface ControlPlaneInformers {
  deployments: Informer<Deployment>;
  replicaSets: Informer<ReplicaSet>;
  /** v1 ReplicationControllers, read through the ReplicaSet shape (their selector is a label map). */
  replicationControllers: Informer<ReplicaSet>;
  pods: Informer<Pod>;
  nodes: Informer<Node>;
}

function builtin(name: string): ResourceType {
  const t = findBuiltin(name);
  if (!t) throw new Error(`no built-in resource ${name}`);
  return t;
}

/** v1 ReplicationControllers (not among the client's built-in types, which kubectl's commands need). */
const REPLICATION_CONTROLLERS_TYPE: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  namespaced: true,
  shortNames: ['rc'],
};

const ownership = {
  /** `uid:<controller uid>` or `orphan:<namespace>`. */
  controller: (o: KubeObject) => controllerIndex(o),
};

/** Creates (and starts) the shared informers, across all namespaces. */
export function controlPlaneInformers(kube: KubeClient): ControlPlaneInformers {
  const f = kube.informers;
  return {
    deployments: f.informerFor<Deployment>({ type: builtin('deployments') }, { indexers: ownership }),
    replicaSets: f.informerFor<ReplicaSet>({ type: builtin('replicasets') }, { indexers: ownership }),
    replicationControllers: f.informerFor<ReplicaSet>({ type: REPLICATION_CONTROLLERS_TYPE }),
    pods: f.informerFor<Pod>(
      { type: builtin('pods') },
      { indexers: { ...ownership, node: (o: KubeObject) => [(o as Pod).spec?.nodeName ?? ''] } },
    ),
    nodes: f.informerFor<Node>({ type: builtin('nodes') }),
  };
}
