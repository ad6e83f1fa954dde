/**
 * Runs the Website operator against the cluster of the current kubeconfig
 * until interrupted.
 *
 *   npx tsx examples/operator/src/main.ts [--client watchmark|client-node] [--kubeconfig FILE]
 */
import { parseArgs } from 'node:util';
import { connect, IMPLEMENTATIONS, type Implementation } from './connect.js';
import { startController } from './controller.js';

const { values } = parseArgs({
  options: {
    client: { type: 'string', default: 'watchmark' },
    kubeconfig: { type: 'string' },
    'registry-namespace': { type: 'string' },
  },
});
const impl = values.client as Implementation;
if (!IMPLEMENTATIONS.includes(impl)) {
  console.error(`--client must be one of ${IMPLEMENTATIONS.join(', ')}`);
  process.exit(2);
}

const controller = await startController(await connect(impl, values.kubeconfig), {
  registryNamespace: values['registry-namespace'],
  log: (line) => console.log(line),
});
console.log(`website-operator (${impl}) running; Ctrl-C to stop`);
const stop = async () => {
  await controller.stop();
  console.log('stopped', controller.stats);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
