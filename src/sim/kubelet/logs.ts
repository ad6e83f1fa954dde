/**
 * What a simulated container writes to its log, and the kubelet's `containerLogs` endpoint that
 * kube-apiserver's pods/log reads (pkg/kubelet/server/server.go `getContainerLogs`).
 *
 * How the API server reaches it: as kube-apiserver reaches a kubelet, through the Node's address
 * and kubelet port. The simulation's kubelets share one HTTPS server on the loopback interface;
 * each simulated Node reports `Hostname: localhost` (the address kube-apiserver prefers) and
 * that server's port as its `daemonEndpoints.kubeletEndpoint.Port`. The server stays a client's
 * business: nothing in server/ knows the simulation, and the sim imports nothing of the server.
 *
 * The log is a pure function of the pod as the kubelet last wrote it, so it is deterministic: a
 * start line when the container started, what its command would print (the words of `echo`,
 * alone or in a `sh -c` script), and an exit line once it terminated; the previous instance's
 * log (`previous=true`) is the same built from `lastState.terminated`.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Clock } from '../../protocol/clock.js';
import type { Pod } from '../core/objects.js';

/** One line of a container's log, with the time the runtime stamped it (ms). */
export interface LogLine {
  time: number;
  text: string;
}

/** A log request the kubelet refuses: its status and plain-text words. */
export class LogRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** What `command` + `args` print: the words of each `echo` (a `sh -c` script's too). */
export function commandOutput(command: string[], args: string[]): string[] {
  const argv = [...command, ...args];
  if (argv[0] === 'echo' || argv[0] === '/bin/echo') return [argv.slice(1).join(' ')];
  const shell = ['sh', '/bin/sh', 'bash', '/bin/bash'].includes(argv[0] ?? '') && argv[1] === '-c';
  if (!shell) return [];
  return (argv[2] ?? '')
    .split(/;|&&|\n/)
    .map((s) => s.trim())
    .filter((s) => /^echo(\s|$)/.test(s))
    .map((s) =>
      s
        .slice(4)
        .trim()
        .replace(/^(["'])(.*)\1$/, '$2'),
    );
}

/**
 * The lines of container `name`'s log in `pod`: the running or terminated instance, or with
 * `previous` the one before it. Refusals in the kubelet's words.
 */
export function containerLog(pod: Pod, name: string, previous: boolean): LogLine[] {
  const spec = rec(pod.spec);
  const containers = [
    ...((spec.initContainers as Obj[] | undefined) ?? []),
    ...((spec.containers as Obj[] | undefined) ?? []),
  ];
  const container = containers.find((c) => c.name === name);
  const podName = pod.metadata?.name ?? '';
  const statuses = [
    ...((rec(pod.status).initContainerStatuses as Obj[] | undefined) ?? []),
    ...((rec(pod.status).containerStatuses as Obj[] | undefined) ?? []),
  ];
  const status = statuses.find((s) => s.name === name);
  if (!container || !status) {
    throw new LogRefusal(
      400,
      `container "${name}" in pod "${podName}" is waiting to start: ContainerCreating`,
    );
  }
  const instance = previous ? rec(rec(status.lastState).terminated) : rec(status.state);
  if (previous && instance.startedAt === undefined) {
    throw new LogRefusal(400, `previous terminated container "${name}" in pod "${podName}" not found`);
  }
  const running = rec(instance.running);
  const terminated = previous ? instance : rec(instance.terminated);
  const startedAt = (running.startedAt ?? terminated.startedAt) as string | undefined;
  if (startedAt === undefined) {
    const reason = String(rec(rec(status.state).waiting).reason ?? 'ContainerCreating');
    throw new LogRefusal(400, `container "${name}" in pod "${podName}" is waiting to start: ${reason}`);
  }
  const start = Date.parse(startedAt);
  const lines: LogLine[] = [
    { time: start, text: `[simulated] container ${name} started from image ${String(container.image)}` },
    ...commandOutput(strs(container.command), strs(container.args)).map((text) => ({ time: start, text })),
  ];
  if (terminated.finishedAt !== undefined) {
    const code = Number(terminated.exitCode ?? 0);
    lines.push({
      time: Date.parse(String(terminated.finishedAt)),
      text: `[simulated] container ${name} exited with code ${code}`,
    });
  }
  return lines;
}

/** Whether the instance the log follows has ended (a follow ends with it). */
function ended(pod: Pod | undefined, name: string): boolean {
  if (!pod) return true;
  const statuses = [
    ...((rec(pod.status).initContainerStatuses as Obj[] | undefined) ?? []),
    ...((rec(pod.status).containerStatuses as Obj[] | undefined) ?? []),
  ];
  return rec(rec(statuses.find((s) => s.name === name)?.state).terminated).finishedAt !== undefined;
}

/** The kubelet's log options (`PodLogOptions` as the kubelet reads its query). */
export interface LogQuery {
  tailLines?: number;
  sinceSeconds?: number;
  sinceTime?: number;
  limitBytes?: number;
  timestamps: boolean;
}

/** The text of `lines` as the kubelet writes it: since, tail, timestamps, then the byte limit. */
export function renderLog(lines: LogLine[], q: LogQuery, now: number): string {
  let picked = lines;
  const since = q.sinceSeconds !== undefined ? now - q.sinceSeconds * 1000 : q.sinceTime;
  if (since !== undefined) picked = picked.filter((l) => l.time >= since);
  if (q.tailLines !== undefined) picked = q.tailLines <= 0 ? [] : picked.slice(-q.tailLines);
  const text = picked
    .map((l) => `${q.timestamps ? `${new Date(l.time).toISOString()} ` : ''}${l.text}\n`)
    .join('');
  if (q.limitBytes === undefined) return text;
  return Buffer.from(text).subarray(0, Math.max(0, q.limitBytes)).toString('utf8');
}

/** Options of {@link KubeletLogServer}. */
export interface KubeletLogServerOptions {
  /** The serving key and certificate (PEM) the kubelets present. */
  tls: { key: string; cert: string };
  /** The pod `namespace/name` as its kubelet last saw it. */
  findPod: (namespace: string, name: string) => Pod | undefined;
  clock: Clock;
  /** How often a follow looks for the container's end (ms). */
  followPollMs?: number;
}

/** The simulated kubelets' HTTPS endpoint: `GET /containerLogs/<namespace>/<pod>/<container>`. */
export class KubeletLogServer {
  private readonly server: Server;
  private readonly opts: KubeletLogServerOptions;

  constructor(opts: KubeletLogServerOptions) {
    this.opts = opts;
    this.server = createServer({ key: opts.tls.key, cert: opts.tls.cert }, (req, res) => {
      this.serve(req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(err.message);
      });
    });
  }

  /** Listens on 127.0.0.1 and resolves the port. */
  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as AddressInfo).port;
  }

  /** Closes the server and every connection (a follow in progress ends). */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    const parts = url.pathname
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent);
    if (req.method !== 'GET' || parts[0] !== 'containerLogs' || parts.length !== 4) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('404 page not found\n');
      return;
    }
    const [, namespace, podName, name] = parts;
    const q = url.searchParams;
    const num = (k: string) => (q.get(k) === null ? undefined : Number(q.get(k)));
    const query: LogQuery = {
      tailLines: num('tailLines'),
      sinceSeconds: num('sinceSeconds'),
      sinceTime: q.get('sinceTime') ? Date.parse(q.get('sinceTime')!) : undefined,
      limitBytes: num('limitBytes'),
      timestamps: q.get('timestamps') === 'true',
    };
    const previous = q.get('previous') === 'true';
    const pod = this.opts.findPod(namespace, podName);
    if (!pod) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`pod "${podName}" not found`);
      return;
    }
    let lines: LogLine[];
    try {
      lines = containerLog(pod, name, previous);
    } catch (err) {
      if (!(err instanceof LogRefusal)) throw err;
      res.writeHead(err.code, { 'content-type': 'text/plain' });
      res.end(err.message);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    const first = renderLog(lines, query, this.opts.clock.now());
    res.write(first);
    if (q.get('follow') !== 'true' || previous) {
      res.end();
      return;
    }
    await this.follow(res, namespace, podName, name, lines.length, query, Buffer.byteLength(first));
  }

  /** Streams the lines the container adds until it ends or the client goes away. */
  private async follow(
    res: ServerResponse,
    namespace: string,
    podName: string,
    name: string,
    sent: number,
    query: LogQuery,
    bytes: number,
  ): Promise<void> {
    let closed = false;
    res.once('close', () => {
      closed = true;
    });
    let written = bytes;
    for (;;) {
      const pod = this.opts.findPod(namespace, podName);
      const lines = pod ? safeLog(pod, name) : [];
      if (lines.length > sent) {
        const more = renderLog(lines.slice(sent), { timestamps: query.timestamps }, this.opts.clock.now());
        const room =
          query.limitBytes === undefined
            ? more
            : Buffer.from(more)
                .subarray(0, Math.max(0, query.limitBytes - written))
                .toString('utf8');
        res.write(room);
        written += Buffer.byteLength(room);
        sent = lines.length;
      }
      if (closed || ended(pod, name) || (query.limitBytes !== undefined && written >= query.limitBytes))
        break;
      await new Promise((r) => setTimeout(r, this.opts.followPollMs ?? 200));
    }
    res.end();
  }
}

function safeLog(pod: Pod, name: string): LogLine[] {
  try {
    return containerLog(pod, name, false);
  } catch {
    // Not started again yet: nothing new to write.
    return [];
  }
}
