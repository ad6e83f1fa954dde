/**
 * `npm run bench:server`: the server benchmarks in one run, in sequence:
 * import + start time (server-import.ts), the write cost of the typed-object
 * check (server-write.ts: a Pod create with the check on and off), watch
 * fan-out (server-fanout.ts, every argument passed on), then memory vs etcd
 * (server-etcd.ts). The first two take only `--quick`. Each runs in its own
 * process so none's heap or open sockets weigh on another. `--quick` (a check
 * before a change lands, under 30 s) runs the first three only: the etcd
 * comparison has its own `npm run bench:etcd -- --quick`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const script = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const run = (name: string, argv: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', script(name), ...argv], { stdio: 'inherit' }).status ?? 1;

const quick = args.includes('--quick') ? ['--quick'] : [];
const importTime = run('./server-import.ts', quick);
const writeCost = run('./server-write.ts', quick);
const fanout = run('./server-fanout.ts', args);
const etcd = quick.length > 0 ? 0 : run('./server-etcd.ts', []);
process.exitCode = importTime || writeCost || fanout || etcd;
