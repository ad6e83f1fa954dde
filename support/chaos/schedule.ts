/**
 * The deterministic half of the chaos test: a seed picks the run's settings
 * (bookmarks on or off, streaming lists, page size, timings) and a schedule
 * of writes and faults. Nothing here touches the network, so a seed always
 * yields the same plan; only the timing of its execution varies.
 */

import { seededRandom as mulberry32 } from '../../src/process/index.js';
import type { FaultAction } from '../fault-proxy/fault-proxy.js';
import { WIDGETS } from './crd.js';
import { type NamespaceStep, withNamespaceCycles } from './namespaces.js';

/** How the informers talk to the server in one run. */
export type Mode = 'bookmarks' | 'clientNoBookmarks' | 'serverNoBookmarks' | 'stream';

/**
 * What happens to the API server in a run's server faults: `restart` closes
 * it cleanly and starts it again over the same store; `kill` SIGKILLs its
 * process mid-schedule and starts a fresh one over the same etcd data;
 * `failover` runs two servers over one etcd and moves the informers'
 * traffic from one to the other, killing one now and then.
 */
export type Disruption = 'restart' | 'kill' | 'failover';

/** Every {@link Disruption}, for option parsing. */
export const DISRUPTIONS: readonly Disruption[] = ['restart', 'kill', 'failover'];

/** The settings of one run. */
export interface ChaosConfig {
  seed: number;
  mode: Mode;
  /** What the server faults do (the `restart` steps of the plan become this). */
  disruption: Disruption;
  /** Server bookmark interval (ms). */
  bookmarkIntervalMs: number;
  /** Client list page size (0 = unpaginated). */
  pageSize: number;
  /** Explicit idle timeout, or undefined to derive it from the server's bookmark interval. */
  idleTimeoutMs: number | undefined;
  /** The idle timeout the watchers end up with (ms). */
  effectiveIdleMs: number;
  backoff: { initialMs: number; maxMs: number };
  watchTimeoutMs: [number, number];
  /** The informers re-deliver their caches this often (undefined: never). */
  resyncPeriodMs: number | undefined;
  /** The informers decode objects lazily (`lazyDecode`). */
  lazyDecode: boolean;
  /** Handlers are async and sometimes wait a little, so events queue up behind them. */
  slowHandlers: boolean;
  /** Wait for the informers to sync before the first fault. */
  syncFirst: boolean;
  /** How many writes run before the informers start (their initial list). */
  prefill: Step[];
  steps: Step[];
}

/** RBAC Roles and NetworkPolicies: kinds of the later API groups, written like ConfigMaps. */
export const ROLES = 'roles.rbac.authorization.k8s.io';
export const NETWORK_POLICIES = 'networkpolicies.networking.k8s.io';
/**
 * HorizontalPodAutoscalers, written through autoscaling/v2 (the preferred version); the server
 * caches of both versions (`HPAS_V1` is autoscaling/v1's, over the same objects) must equal the
 * store at the end of every run (checks.ts `serverCachesMatch`).
 */
export const HPAS = 'horizontalpodautoscalers.autoscaling';
export const HPAS_V1 = 'horizontalpodautoscalers.v1.autoscaling';

/** A resource the writer touches: four built-in types and the run's custom type (crd.ts). */
export type Res =
  | 'pods'
  | 'configmaps'
  | typeof ROLES
  | typeof NETWORK_POLICIES
  | typeof HPAS
  | typeof HPAS_V1
  | typeof WIDGETS;

/** Every {@link Res}: what the checks compare the servers' watch caches on. */
export const RESOURCES: readonly Res[] = [
  'pods',
  'configmaps',
  ROLES,
  NETWORK_POLICIES,
  HPAS,
  HPAS_V1,
  WIDGETS,
];

/** A resource with a `status` the writer changes through the status subresource. */
export type PhasedRes = 'pods' | typeof WIDGETS;

/** One step of a schedule. */
export type Step =
  | { op: 'create'; res: Res; ns: string; name: string; tier: string; data: string }
  | { op: 'modify'; res: Res; ns: string; name: string; data: string }
  | { op: 'relabel'; res: Res; ns: string; name: string; tier: string | null }
  /** A status write (`PATCH .../status`): the phase moves objects in and out of field selectors. */
  | { op: 'phase'; res: PhasedRes; ns: string; name: string; phase: string }
  | { op: 'delete'; res: Res; ns: string; name: string }
  | { op: 'sleep'; ms: number }
  | { op: 'dropWatches' }
  | { op: 'compact' }
  | { op: 'pause'; ms: number }
  /** The connections open now go silent for `ms`; new ones work. */
  | { op: 'stall'; ms: number }
  | { op: 'restart'; downMs: number }
  /**
   * In `delayMs` (while the next steps run), SIGKILL the server the informers
   * use (`active`) or the other one (`standby`); a fresh process starts on its
   * port `downMs` after it is gone. With `failover`, the proxy moves to the
   * other server as the kill lands, as a load balancer's health check would.
   */
  | { op: 'kill'; which: 'active' | 'standby'; delayMs: number; downMs: number; failover: boolean }
  /** The proxy sends new requests to the other server; with `cut`, the open ones are cut too. */
  | { op: 'failover'; cut: boolean }
  | { op: 'cutAll' }
  /** Registers one more set of handlers on every running informer (as shared informers get them). */
  | { op: 'lateHandlers' }
  /** The next `count` requests (watches only, when `watchOnly`) get `action`. */
  | { op: 'arm'; action: FaultAction; count: number; watchOnly: boolean }
  /** Failover runs: a namespace held, deleted and released across the servers (namespaces.ts). */
  | NamespaceStep;

/** Namespaces the writer uses. */
export const NAMESPACES = ['chaos-a', 'chaos-b'];
/** Label values; `front` and `edge` are inside the label-selected informers' selectors. */
const TIERS = ['front', 'edge', 'back'];
const PHASES = ['Pending', 'Running', 'Running', 'Succeeded'];
const NAMES_PER_NS = 6;

/** Data values with multi-byte characters, so a cut mid-line can also split a UTF-8 sequence. */
const DATA = ['plain', 'héllo wörld', '✓ ready', '🚀 launch', 'x'.repeat(300), '日本語テキスト'];

function pick<T>(rng: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rng() * xs.length)];
}

function between(rng: () => number, lo: number, hi: number): number {
  return Math.round(lo + rng() * (hi - lo));
}

/** The settings and schedule of `seed` when server faults are `disruption`s. */
export function planSeed(seed: number, disruption: Disruption = 'restart'): ChaosConfig {
  // Settings and steps draw from separate streams, so a new setting leaves every seed's steps as they were.
  const rng = mulberry32(seed);
  const stepsRng = mulberry32(Math.imul(seed, 0x9e3779b1) ^ 0x5bd1e995);
  // The disruptions of kill and failover runs have a stream of their own too: a seed's writes
  // and other faults are the same whatever the disruption.
  const disruptRng = mulberry32(Math.imul(seed, 0x85ebca6b) ^ 0x27d4eb2f);
  const modes: Mode[] = [
    'bookmarks',
    'stream',
    'clientNoBookmarks',
    'bookmarks',
    'serverNoBookmarks',
    'stream',
  ];
  const mode = modes[seed % modes.length];
  const bookmarkIntervalMs = between(rng, 50, 100);
  const explicitIdle = mode === 'clientNoBookmarks' || rng() < 0.4;
  const idleTimeoutMs = explicitIdle ? between(rng, 120, 220) : undefined;
  const watchTimeoutMs: [number, number] = [1000, 3000];
  const config: ChaosConfig = {
    seed,
    mode,
    disruption,
    bookmarkIntervalMs,
    pageSize: pick(rng, [0, 2, 3, 5, 500]),
    idleTimeoutMs,
    effectiveIdleMs: idleTimeoutMs ?? 3 * bookmarkIntervalMs,
    backoff: { initialMs: between(rng, 5, 20), maxMs: 100 },
    watchTimeoutMs,
    resyncPeriodMs: rng() < 0.25 ? between(rng, 60, 200) : undefined,
    slowHandlers: rng() < 0.5,
    lazyDecode: rng() < 0.3,
    syncFirst: rng() < 0.6,
    prefill: [],
    steps: [],
  };
  const model: Model = { exists: new Set() };
  const prefill = between(stepsRng, 0, 10);
  for (let i = 0; i < prefill; i++) config.prefill.push(planWrite(stepsRng, model));
  config.steps = disrupt(disruptRng, planSteps(stepsRng, config, model), disruption);
  // Two servers: a namespace deleted through one and released through the other must go.
  if (disruption === 'failover') config.steps = withNamespaceCycles(seed, config.steps);
  return config;
}

/**
 * Turns the plan's `restart` steps into `disruption`s, and makes sure a kill
 * or failover run has one to three of them (a restart happens in only some
 * seeds; these runs exist to exercise theirs).
 */
function disrupt(rng: () => number, steps: Step[], disruption: Disruption): Step[] {
  if (disruption === 'restart') return steps;
  const out = steps.map((s) => (s.op === 'restart' ? planDisruption(rng, disruption) : s));
  const have = out.filter((s) => s.op === 'kill' || s.op === 'failover').length;
  for (let i = have, want = between(rng, 1, 3); i < want; i++) {
    out.splice(Math.floor(rng() * (out.length + 1)), 0, planDisruption(rng, disruption));
  }
  return out;
}

function planDisruption(rng: () => number, disruption: Exclude<Disruption, 'restart'>): Step {
  // Often within the next write or two, sometimes while the schedule sleeps.
  const delayMs = between(rng, 0, 30);
  const downMs = between(rng, 0, 100);
  if (disruption === 'kill') return { op: 'kill', which: 'active', delayMs, downMs, failover: false };
  const r = rng();
  if (r < 0.3) return { op: 'failover', cut: false };
  if (r < 0.5) return { op: 'failover', cut: true };
  if (r < 0.8) return { op: 'kill', which: 'active', delayMs, downMs, failover: true };
  return { op: 'kill', which: 'standby', delayMs, downMs, failover: false };
}

/** Which objects exist, as the plan expects (writes may still fail; the checks read the server). */
interface Model {
  exists: Set<string>;
}

function planSteps(rng: () => number, config: ChaosConfig, model: Model): Step[] {
  const steps: Step[] = [];
  const count = between(rng, 25, 45);
  for (let i = 0; i < count; i++) {
    const r = rng();
    if (r < 0.62) steps.push(planWrite(rng, model));
    else if (r < 0.75) steps.push({ op: 'sleep', ms: between(rng, 5, 40) });
    else steps.push(planFault(rng, config));
    if (rng() < 0.5) steps.push({ op: 'sleep', ms: between(rng, 0, 8) });
  }
  if (rng() < 0.7) steps.splice(Math.floor(rng() * (steps.length + 1)), 0, { op: 'lateHandlers' });
  return steps;
}

function planWrite(rng: () => number, model: Model): Step {
  const which = rng();
  const res: Res =
    which < 0.45
      ? 'pods'
      : which < 0.62
        ? 'configmaps'
        : which < 0.7
          ? ROLES
          : which < 0.78
            ? NETWORK_POLICIES
            : which < 0.84
              ? HPAS
              : WIDGETS;
  const ns = pick(rng, NAMESPACES);
  const prefix = {
    pods: 'p',
    configmaps: 'c',
    [ROLES]: 'r',
    [NETWORK_POLICIES]: 'n',
    [HPAS]: 'h',
    [HPAS_V1]: 'h',
    [WIDGETS]: 'w',
  }[res];
  const name = `${prefix}${Math.floor(rng() * NAMES_PER_NS)}`;
  const id = `${res}/${ns}/${name}`;
  if (!model.exists.has(id)) {
    model.exists.add(id);
    return { op: 'create', res, ns, name, tier: pick(rng, TIERS), data: pick(rng, DATA) };
  }
  const r = rng();
  if (r < 0.2) {
    model.exists.delete(id);
    return { op: 'delete', res, ns, name };
  }
  if (r < 0.5) return { op: 'relabel', res, ns, name, tier: rng() < 0.15 ? null : pick(rng, TIERS) };
  if (r < 0.75 && (res === 'pods' || res === WIDGETS))
    return { op: 'phase', res, ns, name, phase: pick(rng, PHASES) };
  return { op: 'modify', res, ns, name, data: pick(rng, DATA) };
}

function planFault(rng: () => number, config: ChaosConfig): Step {
  const r = rng();
  if (r < 0.14) return { op: 'dropWatches' };
  if (r < 0.26) return { op: 'compact' };
  if (r < 0.38) {
    // Longer than the idle timeout: the watchers must notice the silence and resume.
    return { op: 'pause', ms: config.effectiveIdleMs + between(rng, 20, 120) };
  }
  if (r < 0.45) return { op: 'restart', downMs: between(rng, 0, 40) };
  if (r < 0.5) return { op: 'cutAll' };
  if (r < 0.58) {
    // Some connections die for good (longer than the seed lasts), as a blackholed flow does.
    return { op: 'stall', ms: rng() < 0.4 ? 60_000 : config.effectiveIdleMs + between(rng, 20, 120) };
  }
  const f = rng();
  const count = between(rng, 1, 4);
  const watchOnly = rng() < 0.5;
  if (f < 0.25) {
    // Retry-After is whole seconds: mostly 0, sometimes the 1 s a real server would send.
    const retryAfterSeconds = rng() < 0.12 ? 1 : 0;
    return { op: 'arm', action: { kind: 'status', code: 429, retryAfterSeconds }, count, watchOnly };
  }
  if (f < 0.35) return { op: 'arm', action: { kind: 'status', code: 500 }, count, watchOnly };
  if (f < 0.45) {
    // A 410 on any request, or a lagging cache's 504 "too large resource version".
    const code = rng() < 0.5 ? 410 : 504;
    return { op: 'arm', action: { kind: 'status', code, retryAfterSeconds: 0 }, count, watchOnly };
  }
  if (f < 0.6) return { op: 'arm', action: { kind: 'reset' }, count, watchOnly };
  if (f < 0.75) {
    const code = rng() < 0.5 ? 410 : 500;
    return {
      op: 'arm',
      action: { kind: 'errorEvent', afterLines: between(rng, 0, 6), code },
      count,
      watchOnly: true,
    };
  }
  // Cut after a few bytes to a few hundred: often mid-line, sometimes mid-character.
  return { op: 'arm', action: { kind: 'cut', afterBytes: between(rng, 0, 400) }, count, watchOnly };
}

/** A one-line description of a plan, for failure reports. */
export function describePlan(config: ChaosConfig): string {
  const ops = new Map<string, number>();
  for (const s of config.steps) {
    const key =
      s.op === 'arm'
        ? `arm:${s.action.kind}${s.action.kind === 'status' ? s.action.code : ''}`
        : s.op === 'kill'
          ? `kill:${s.which}${s.failover ? '+failover' : ''}`
          : s.op === 'failover'
            ? `failover${s.cut ? ':cut' : ''}`
            : s.op;
    ops.set(key, (ops.get(key) ?? 0) + 1);
  }
  const counts = [...ops].map(([k, v]) => `${k}=${v}`).join(' ');
  return (
    `mode=${config.mode} disruption=${config.disruption} bookmarkInterval=${config.bookmarkIntervalMs}ms pageSize=${config.pageSize} ` +
    `idle=${config.effectiveIdleMs}ms resync=${config.resyncPeriodMs ?? 'off'} lazyDecode=${config.lazyDecode} slowHandlers=${config.slowHandlers} syncFirst=${config.syncFirst} prefill=${config.prefill.length} ` +
    `steps=${config.steps.length} (${counts})`
  );
}
