// The pod informer of @kubernetes/client-node's documentation, in the same
// form, with one line changed: makeInformer comes from watchmark/client-node
// (in this repository, its source). Put back
//   import { makeInformer } from '@kubernetes/client-node';
// and it runs on client-node's informer; test/client-node/example.test.ts runs both.
// Run: KUBECONFIG=... npx tsx examples/client-node-informer.ts
import * as k8s from '@kubernetes/client-node';
import { makeInformer } from '../src/client-node/index.js';

const kc = new k8s.KubeConfig();
kc.loadFromDefault();

const core = kc.makeApiClient(k8s.CoreV1Api);
const namespace = 'default';

const listPods = () => core.listNamespacedPod({ namespace });

const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/pods`, listPods);

informer.on('add', (pod: k8s.V1Pod) => {
  console.log(`pod added: ${pod.metadata?.name}`);
});
informer.on('update', (pod: k8s.V1Pod) => {
  console.log(`pod updated: ${pod.metadata?.name}`);
});
informer.on('delete', (pod: k8s.V1Pod) => {
  console.log(`pod deleted: ${pod.metadata?.name}`);
});
informer.on('error', (err: unknown) => {
  console.error(err);
  // The restart every client-node informer needs; with watchmark/client-node it is harmless.
  setTimeout(() => {
    informer.start();
  }, 5000);
});

informer.start();
