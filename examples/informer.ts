// A runnable tour of the client: an informer with bookmarks that survives a
// dropped watch and a compaction without relisting. Run: npx tsx examples/informer.ts
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient } from '../src/index.js';
import { startServer } from '../src/server/index.js';

const dir = await mkdtemp(join(tmpdir(), 'watchmark-example-'));
const kubeconfig = join(dir, 'kubeconfig');
// An embedded API server with a 1 s bookmark interval (kube-apiserver: 1 minute).
// No controller makes the namespace's `default` ServiceAccount, which the ServiceAccount
// admission plugin requires of every pod: the plugin is off, as envtest runs kube-apiserver.
const server = await startServer({
  disableAdmissionPlugins: ['ServiceAccount'],
  kubeconfigOut: kubeconfig,
  bookmarkInterval: 1_000,
});
const kube = await KubeClient.load({ kubeconfig });

await kube.resource('namespaces').create({ metadata: { name: 'demo' } });
const pods = kube.resource('pods', 'demo');
const pod = (name: string, node: string) => ({
  metadata: { name },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'nginx:1.27' }] },
});
await pods.create(pod('web-1', 'node-1'));

// Like a kubelet: only this node's pods.
const informer = kube.informer('pods', { namespace: 'demo', fieldSelector: 'spec.nodeName=node-1' });
informer.on({
  add: (p) => console.log(`add     ${p.metadata?.name} rv=${p.metadata?.resourceVersion}`),
  update: (_, p) => console.log(`update  ${p.metadata?.name} rv=${p.metadata?.resourceVersion}`),
  delete: (p, { finalStateUnknown }) =>
    console.log(`delete  ${p.metadata?.name}${finalStateUnknown ? ' (final state unknown)' : ''}`),
});
informer.start();
await informer.synced();

// Other nodes' churn: this watcher sees none of it, but the server's resourceVersion races ahead.
for (let i = 0; i < 20; i++) await pods.create(pod(`other-${i}`, 'node-2'));
await new Promise((r) => setTimeout(r, 1_500)); // one bookmark interval
console.log(`watcher resourceVersion ${informer.watcher.resourceVersion}, server ${server.latestRevision()}`);

await server.compact(); // the history before now is gone: resuming from an old RV would be 410
server.dropWatches(); // and the connection breaks
await pods.create(pod('web-2', 'node-1'));
await new Promise((r) => setTimeout(r, 1_500));

const m = informer.watcher.metrics;
console.log(
  `cache: ${informer
    .list()
    .map((p) => p.metadata?.name)
    .join(', ')}`,
);
console.log(
  `lists: ${JSON.stringify(m.lists)}, bookmarks: ${m.bookmarks}, resumes: ${m.resumes}, watch ends: ${JSON.stringify(m.watchEnds)}`,
);

await informer.stop();
await kube.close();
await server.close();
await rm(dir, { recursive: true, force: true });
