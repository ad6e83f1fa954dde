/**
 * Starting real etcd members on loopback, for `watchmark cluster up`, the
 * tests and the benchmarks: free ports, a data directory on tmpfs by default,
 * `--max-request-bytes` raised above the API server's body limit, and no
 * orphan processes on any path.
 *
 * Each member runs tethered (tethered-process.ts): when this process dies,
 * however it dies (SIGKILL included), its etcd dies with it.
 */

import { accessSync, constants, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './free-port.js';
import { TetheredProcess } from './tethered-process.js';

/**
 * etcd's default request limit is 1.5 MiB, below the API server's 3 MiB body
 * limit: a 2 MiB object would be refused by etcd (413). Members started here
 * take 4 MiB, which fits any body the server accepts plus the key and the
 * transaction around it.
 */
export const ETCD_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Options of {@link startEtcdCluster}. */
export interface EtcdClusterOptions {
  /** How many members (default 1). */
  members?: number;
  /**
   * Parent directory of the members' data; a fresh directory under /dev/shm
   * (tmpfs) when absent, removed on close. A given directory is kept.
   */
  dataDir?: string;
  /** etcd's `--max-request-bytes` (default {@link ETCD_MAX_REQUEST_BYTES}). */
  maxRequestBytes?: number;
  /** The etcd binary (default: `etcd` on PATH). */
  binary?: string;
  /** Faster elections for tests: heartbeat 50 ms, election timeout 500 ms (default false: etcd's 100/1000). */
  fastElections?: boolean;
  /** The members' client and peer ports (default: free ones); a restart over kept data must reuse them. */
  ports?: Array<{ client: number; peer: number }>;
  /**
   * Serve clients over TLS (https URLs): the members' certificate and key
   * files, and with `clientCaFile` require client certificates signed by it.
   */
  clientTls?: { certFile: string; keyFile: string; clientCaFile?: string };
  /** How long to wait for every member to answer /health (default 20 s). */
  startTimeoutMs?: number;
}

/** One etcd member started by {@link startEtcdCluster}. */
export interface EtcdMember {
  readonly name: string;
  /** The client URL (`http://127.0.0.1:PORT`). */
  readonly clientUrl: string;
  /** The process id of etcd itself (not of its wrapper); undefined while stopped. */
  readonly pid: number | undefined;
  /** Whether the member's process is running. */
  readonly running: boolean;
  /** Kills the member with SIGKILL, as a crash would, and waits for it to go. */
  kill(): Promise<void>;
  /** Stops the member with SIGTERM, then SIGKILL if it is not gone within `graceMs` (default 3 s). */
  stop(graceMs?: number): Promise<void>;
  /** Starts a stopped member again over its data and waits until it is healthy. */
  start(): Promise<void>;
}

/** A running etcd cluster. */
export interface EtcdCluster {
  /** Client URLs of every member. */
  readonly endpoints: string[];
  readonly members: EtcdMember[];
  /** Where the members keep their data. */
  readonly dataDir: string;
  /** Stops every member and removes a temporary data directory. */
  close(): Promise<void>;
}

/**
 * The etcd binary: `$WATCHMARK_ETCD`, else `etcd` on PATH, else the etcd 3.7
 * that `reference/build.sh` builds into its cache (`$WATCHMARK_REFERENCE_DIR`
 * or `~/.cache/watchmark/reference`, `bin/etcd`); undefined when there is
 * none. Checked synchronously, so tests can decide at collection time.
 */
export function findEtcdBinary(): string | undefined {
  const candidates: string[] = [];
  if (process.env.WATCHMARK_ETCD)
    return executable(process.env.WATCHMARK_ETCD) ? process.env.WATCHMARK_ETCD : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '') candidates.push(join(dir, 'etcd'));
  }
  const cache =
    process.env.WATCHMARK_REFERENCE_DIR ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'watchmark', 'reference');
  candidates.push(join(cache, 'bin', 'etcd'));
  return candidates.find(executable);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

class Member implements EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  private readonly args: string[];
  private readonly binary: string;
  readonly logPath: string;
  private readonly startTimeoutMs: number;
  private process: TetheredProcess | undefined;

  constructor(
    name: string,
    clientUrl: string,
    binary: string,
    args: string[],
    logPath: string,
    timeout: number,
  ) {
    this.name = name;
    this.clientUrl = clientUrl;
    this.binary = binary;
    this.args = args;
    this.logPath = logPath;
    this.startTimeoutMs = timeout;
  }

  get pid(): number | undefined {
    return this.process?.pid;
  }

  get running(): boolean {
    return this.process?.running ?? false;
  }

  /** Spawns the process; {@link waitHealthy} tells when it serves. */
  async spawn(): Promise<void> {
    if (this.running) return;
    const log = await open(this.logPath, 'a');
    try {
      this.process = new TetheredProcess(this.binary, this.args, log.fd);
    } finally {
      // The child has its own copy of the descriptor.
      await log.close();
    }
  }

  async waitHealthy(): Promise<void> {
    const deadline = Date.now() + this.startTimeoutMs;
    for (;;) {
      if (!this.running)
        throw new Error(`etcd member ${this.name} exited while starting (log: ${this.logPath})`);
      try {
        if (await this.healthy()) return;
      } catch {
        // not listening yet, or no leader yet: poll again
      }
      if (Date.now() > deadline) {
        throw new Error(
          `etcd member ${this.name} not healthy after ${this.startTimeoutMs} ms (log: ${this.logPath})`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Whether /health says so; over TLS, a listening port is taken for health (it needs the client's credentials). */
  private async healthy(): Promise<boolean> {
    if (this.clientUrl.startsWith('https:')) {
      const { port } = new URL(this.clientUrl);
      return new Promise((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    }
    const res = await fetch(`${this.clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { health?: string };
    return body.health === 'true';
  }

  async kill(): Promise<void> {
    await this.process?.kill();
  }

  async stop(graceMs?: number): Promise<void> {
    // A leader stopping while its followers stop too waits for a leadership
    // transfer that cannot happen: the grace period cuts that short (the WAL is durable).
    await this.process?.stop(graceMs);
  }

  async start(): Promise<void> {
    await this.spawn();
    await this.waitHealthy();
  }
}

/** Whether any member's log holds `text`. */
async function anyLogSays(members: Member[], text: string): Promise<boolean> {
  for (const m of members) {
    const log = await readFile(m.logPath, 'utf8').catch(() => '');
    if (log.includes(text)) return true;
  }
  return false;
}

/** Default parent of temporary data: tmpfs when the machine has it, so fsyncs cost nothing. */
function defaultDataParent(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/**
 * Starts an etcd cluster of `members` members on loopback and waits until
 * each answers `/health`. Throws (after stopping whatever started) when the
 * binary is missing or a member does not come up.
 */
export async function startEtcdCluster(opts: EtcdClusterOptions = {}): Promise<EtcdCluster> {
  // A free port is bound and released before etcd binds it, and another process may take
  // it in between. With ports of our own choosing (so a new cluster, no data to keep),
  // such a start is tried again on fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEtcdClusterOnce(opts);
    } catch (err) {
      if (opts.ports || attempt >= 3 || !(err instanceof PortTakenError)) throw err;
    }
  }
}

/**
 * A member could not bind its port: another process took it after
 * {@link freePort} released it. Starting again on other ports will do.
 */
export class PortTakenError extends Error {}

async function startEtcdClusterOnce(opts: EtcdClusterOptions): Promise<EtcdCluster> {
  const binary = opts.binary ?? findEtcdBinary();
  if (!binary) {
    throw new Error(
      'etcd not found: set WATCHMARK_ETCD, put etcd on PATH, or build it with bash reference/build.sh',
    );
  }
  const count = opts.ports?.length ?? opts.members ?? 1;
  const ownsDir = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(defaultDataParent(), 'watchmark-etcd-')));
  await mkdir(dataDir, { recursive: true });
  const ports = opts.ports ? [...opts.ports] : [];
  for (let i = ports.length; i < count; i++) ports.push({ client: await freePort(), peer: await freePort() });
  const token = `watchmark-${process.pid}-${Date.now().toString(36)}`;
  const initialCluster = ports.map((p, i) => `m${i}=http://127.0.0.1:${p.peer}`).join(',');
  const members = ports.map((p, i) => {
    const name = `m${i}`;
    const clientUrl = `${opts.clientTls ? 'https' : 'http'}://127.0.0.1:${p.client}`;
    const peerUrl = `http://127.0.0.1:${p.peer}`;
    const args = [
      `--name=${name}`,
      `--data-dir=${join(dataDir, name)}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-cluster-token=${token}`,
      '--initial-cluster-state=new',
      `--max-request-bytes=${opts.maxRequestBytes ?? ETCD_MAX_REQUEST_BYTES}`,
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=warn',
    ];
    const tls = opts.clientTls;
    if (tls) args.push(`--cert-file=${tls.certFile}`, `--key-file=${tls.keyFile}`);
    if (tls?.clientCaFile) args.push('--client-cert-auth', `--trusted-ca-file=${tls.clientCaFile}`);
    if (opts.fastElections) args.push('--heartbeat-interval=50', '--election-timeout=500');
    return new Member(
      name,
      clientUrl,
      binary,
      args,
      join(dataDir, `${name}.log`),
      opts.startTimeoutMs ?? 20_000,
    );
  });
  const close = async () => {
    // Temporary data is about to go: no point in a graceful stop.
    await Promise.all(members.map((m) => (ownsDir ? m.kill() : m.stop())));
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
  };
  try {
    // All members must run before any can elect a leader.
    for (const m of members) await m.spawn();
    await Promise.all(members.map((m) => m.waitHealthy()));
  } catch (err) {
    await Promise.all(members.map((m) => m.kill()));
    const portTaken = await anyLogSays(members, 'address already in use');
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    else if (portTaken && !opts.ports) {
      // New members only (no ports were given): their half-made data would not match fresh ports.
      await Promise.all(members.map((m) => rm(join(dataDir, m.name), { recursive: true, force: true })));
    }
    throw portTaken ? new PortTakenError((err as Error).message, { cause: err }) : err;
  }
  return { endpoints: members.map((m) => m.clientUrl), members, dataDir, close };
}
