/**
 * The study's churn writer, alone in its own process (see churn-process.ts):
 * a {@link Churn} with a client of its own. Options arrive in
 * WATCHMARK_STUDY_CHURN, messages over the IPC channel; it stops its writes
 * and exits on `close`, or when the parent goes away.
 *
 * In:  {type:'start'} | {type:'stop'} | {type:'reset-peak'} | {type:'sample', id} | {type:'close'}
 * Out: {type:'ready', url: ''} | {type:'sample', id, sample} | {type:'failed', error}
 */
import { KubeClient } from '../client/client.js';
import { sendToParent } from '../process/index.js';
import { Churn } from './churn.js';
import type { ChurnChildOptions, ChurnSample } from './churn-process.js';

let churn: Churn | undefined;
let kube: KubeClient | undefined;
let drained: Promise<void> | undefined;
let isDrained = false;
let exiting = false;

function stop(): Promise<void> {
  drained ??= (churn?.stop() ?? Promise.resolve()).then(() => {
    isDrained = true;
  });
  return drained;
}

async function shutdown(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  // Writes in flight to a server that is gone must not keep the process alive.
  setTimeout(() => process.exit(code), 5_000).unref();
  try {
    await stop();
    await kube?.close();
  } catch (err) {
    process.stderr.write(`churn writer: close failed: ${(err as Error).message}\n`);
  }
  process.exit(code);
}

function sample(c: Churn): ChurnSample {
  const cpu = process.cpuUsage();
  return {
    cpuUs: cpu.user + cpu.system,
    writes: c.writes,
    inFlight: c.inFlight,
    stats: { ...c.stats },
    drained: isDrained,
  };
}

process.on('message', (message: { type: string; id?: number }) => {
  if (message.type === 'close') {
    void shutdown(0);
    return;
  }
  // Nothing but `close` comes before `ready`.
  if (!churn) return;
  switch (message.type) {
    case 'start':
      churn.start();
      break;
    case 'stop':
      void stop();
      break;
    case 'reset-peak':
      churn.resetPeak();
      break;
    case 'sample':
      sendToParent({ type: 'sample', id: message.id, sample: sample(churn) });
      break;
  }
});
// The parent is gone (crashed, killed, Ctrl-C): nobody will ever ask us to close.
process.on('disconnect', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(143));

async function main(): Promise<void> {
  const options = JSON.parse(process.env.WATCHMARK_STUDY_CHURN ?? '{}') as ChurnChildOptions;
  kube = await KubeClient.load({
    kubeconfig: options.kubeconfig,
    qps: 0,
    userAgent: 'watchmark-study-churn',
  });
  churn = new Churn(kube, options.layout, options.churn);
  sendToParent({ type: 'ready', url: '' });
}

main().catch((err: Error) => {
  sendToParent({ type: 'failed', error: err.stack ?? err.message });
  void shutdown(1);
});
