/**
 * What happens to a chaos world's API servers: clean restarts, kills that
 * land while the schedule goes on (and a fresh process on the same port
 * after them), and failovers that move the informers' proxy to the other
 * server once it serves, as a load balancer's health check would. Each
 * server's restarts and kills happen in order; the schedule does not wait
 * for a kill, only {@link ServerFleet.quiesce} does.
 */

import type { FaultProxy } from '../fault-proxy/fault-proxy.js';
import type { Step } from './schedule.js';
import type { ChaosServer } from './servers.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What the fleet reports into. */
export interface FleetHooks {
  /** A line of the run's timeline. */
  note(what: string): void;
  stats: { restarts: number; kills: number; failovers: number };
  /** The informers' proxy (started after the servers). */
  proxy(): FaultProxy;
}

/** The servers of one world and their disruptions; see the file comment. */
export class ServerFleet {
  /** The server the proxy sends new requests to (or will, once it serves). */
  active = 0;
  private readonly servers: ChaosServer[];
  private readonly hooks: FleetHooks;
  /** Each server's pending lifecycle work, so that its kills and restarts happen in order. */
  private readonly lifecycle: Array<Promise<void>>;
  /** Disruptions still under way in the background, and what failed among them. */
  private readonly background = new Set<Promise<void>>();
  private readonly errors: string[] = [];
  private closing = false;

  constructor(servers: ChaosServer[], hooks: FleetHooks) {
    this.servers = servers;
    this.hooks = hooks;
    this.lifecycle = servers.map(() => Promise.resolve());
  }

  /** The first server that serves now (the first one when none does). */
  upServer(): number {
    return Math.max(
      this.servers.findIndex((s) => s.running),
      0,
    );
  }

  /** Closes the active server cleanly and starts it again on its port after `downMs`. */
  restart(downMs: number): Promise<void> {
    this.hooks.stats.restarts++;
    const server = this.servers[this.active];
    return this.enqueue(this.active, async () => {
      await server.stop();
      this.hooks.note(`${server.name} stopped`);
      await sleep(downMs);
      await server.start();
      this.hooks.note(`${server.name} started`);
    });
  }

  /** Kills a server `step.delayMs` from now, while the schedule goes on; see the `kill` step. */
  killLater(step: Extract<Step, { op: 'kill' }>): void {
    const i = step.which === 'active' ? this.active : 1 - this.active;
    const server = this.servers[i];
    if (!server) return;
    this.hooks.stats.kills++;
    this.hooks.note(`kill ${server.name} in ${step.delayMs} ms, down ${step.downMs} ms`);
    const work = async () => {
      await sleep(step.delayMs);
      if (this.closing) return;
      await server.kill();
      this.hooks.note(`${server.name} killed`);
      if (step.failover && this.active === i) this.failover(false);
      await sleep(step.downMs);
      if (this.closing) return;
      await server.start();
      this.hooks.note(`${server.name} started again`);
    };
    this.inBackground(`killing and restarting ${server.name}`, this.enqueue(i, work));
  }

  /**
   * New requests go to the other server once it serves (a load balancer
   * routes to healthy backends only); with `cut`, every open exchange is cut.
   */
  failover(cut: boolean): void {
    if (this.servers.length < 2) return;
    this.hooks.stats.failovers++;
    const to = 1 - this.active;
    this.active = to;
    const name = this.servers[to].name;
    this.hooks.note(`failover to ${name}${cut ? ', cutting open connections' : ''} (once it serves)`);
    const move = this.lifecycle[to].then(() => {
      if (this.closing || this.active !== to) return;
      const proxy = this.hooks.proxy();
      proxy.retarget(this.servers[to].url);
      const cutCount = cut ? proxy.cutAll() : 0;
      this.hooks.note(`proxy now sends to ${name}${cut ? `; cut ${cutCount} exchanges` : ''}`);
    });
    this.inBackground(`failing over to ${name}`, move);
  }

  /**
   * Waits for disruptions still under way (a killed server's successor
   * starting) and returns what failed among them, and any server that
   * exited on its own; every server runs after it.
   */
  async quiesce(): Promise<string[]> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    for (const [i, s] of this.servers.entries()) {
      if (!s.running) await this.enqueue(i, () => s.start());
    }
    const errors = this.errors.splice(0);
    for (const s of this.servers) {
      const crash = s.unexpectedExit();
      if (crash) errors.push(crash);
    }
    return errors;
  }

  /** Pending kills and restarts stop at their next step; resolves once none runs. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /** Runs `work` on server `i` after the work queued before it; failures are the caller's. */
  private enqueue(i: number, work: () => Promise<void>): Promise<void> {
    const next = this.lifecycle[i].then(work);
    // The queue goes on after a failure (reported through `next`).
    this.lifecycle[i] = next.catch(() => {});
    return next;
  }

  /** Runs `work` in the background; quiesce() waits for it and reports its failure. */
  private inBackground(what: string, work: Promise<void>): void {
    const tracked = work.catch((err: Error) => {
      if (!this.closing) this.errors.push(`${what} failed: ${err?.message ?? String(err)}`);
    });
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }
}
