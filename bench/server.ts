/**
 * `npm run bench:server`: the server benchmarks in one run, in sequence:
 * watch fan-out (server-fanout.ts, every argument passed on), then memory vs
 * etcd (server-etcd.ts, which takes only `--quick`). Each runs in its own
 * process so neither's heap or open sockets weigh on the other.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const run = (name: string, argv: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', script(name), ...argv], { stdio: 'inherit' }).status ?? 1;

const fanout = run('./server-fanout.ts', args);
const etcd = run('./server-etcd.ts', args.includes('--quick') ? ['--quick'] : []);
process.exitCode = fanout || etcd;
