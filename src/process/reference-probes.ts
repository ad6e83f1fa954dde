/**
 * How the reference control plane's processes are started and watched: each
 * tethered with its stderr in a log file, readiness polled over HTTPS with
 * the admin token (a failure quotes the log's last lines), and resident
 * memory read from /proc.
 */
import { open, readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { TetheredProcess } from './spawn/tethered-process.js';

export async function spawnLogged(binary: string, args: string[], logPath: string): Promise<TetheredProcess> {
  const log = await open(logPath, 'a');
  try {
    return new TetheredProcess(binary, args, log.fd);
  } finally {
    await log.close(); // the child has its own copy
  }
}

export function deadlineFrom(start: number, timeoutMs: number): number {
  return start + timeoutMs;
}

export async function waitReady(
  what: string,
  probe: () => Promise<number>,
  child: TetheredProcess,
  logPath: string,
  deadline: number,
): Promise<void> {
  let last = 'no answer yet';
  for (;;) {
    if (!child.running) throw new Error(`${what}: the process exited while starting\n${await tail(logPath)}`);
    try {
      const status = await probe();
      if (status === 200) return;
      last = `HTTP ${status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    if (performance.now() > deadline) {
      throw new Error(`${what}: not ready in time (last: ${last})\n${await tail(logPath)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function tail(path: string, lines = 30): Promise<string> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return `--- last lines of ${path} ---\n${text.split('\n').slice(-lines).join('\n')}`;
}

/** The status of a GET with the admin token. */
export function getStatus(
  client: { url: string; caPem: string; token: string },
  path: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${client.url}${path}`,
      { ca: client.caPem, headers: { authorization: `Bearer ${client.token}` }, timeout: 5_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

export async function residentBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  return kb ? Number(kb[1]) * 1024 : 0;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}
