/**
 * The process the kill -9 test kills: an informer on the pods of one
 * namespace with a checkpoint. Run as `node --import tsx checkpoint-child.ts
 * KUBECONFIG CHECKPOINT NAMESPACE`. Prints one JSON line when synced; on each
 * stdin line `state`, one JSON line with its cache (name@resourceVersion,
 * sorted), its counters and the checkpoint's status.
 */
import { createInterface } from 'node:readline';
import { KubeClient } from '../../src/client/client.js';

const [kubeconfig, path, namespace] = process.argv.slice(2);
const kube = await KubeClient.load({ kubeconfig, qps: 0 });
const informer = kube.informer(
  'pods',
  { namespace },
  {
    checkpoint: { path, intervalMs: 20 },
    logger: { warn: (o, msg) => process.stderr.write(`${msg} ${JSON.stringify(o)}\n`) },
  },
);
await informer.start().synced();
const state = () => ({
  objects: informer
    .list()
    .map((o) => `${o.metadata?.name}@${o.metadata?.resourceVersion}`)
    .sort(),
  lists: informer.watcher.metrics.lists,
  checkpoint: informer.checkpoint?.status,
});
process.stdout.write(`${JSON.stringify({ synced: true, ...state() })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'state') process.stdout.write(`${JSON.stringify(state())}\n`);
  if (line === 'stop') break;
}
await informer.stop();
await kube.close();
