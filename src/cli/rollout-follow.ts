/**
 * `watchmark rollout -f FILE`: apply a manifest, then follow every
 * Deployment in it until all are rolled out, streaming the events of the
 * Deployments, their ReplicaSets and Pods as they happen. On failure
 * (progress deadline, --timeout, a deleted Deployment) the Warning events
 * that explain it are printed and the command fails.
 */

import type { KubeClient } from '../client/client.js';
import type { InformerOptions } from '../client/informer/informer.js';
import type { ApplyResult } from '../client/kubectl/apply.js';
import {
  type FollowedEvent,
  FollowStartError,
  RolloutFollower,
  type RolloutTarget,
  type TargetOutcome,
} from '../client/rollout/follow.js';
import { RolloutAbortedError } from '../client/rollout/watch.js';
import type { KubeObject } from '../protocol/events.js';
import { StatusError } from '../protocol/status.js';
import { applyAndPrint, loadManifests } from './apply.js';
import { type ConnectionFlags, connect, serverErrorLine } from './connect.js';
import { CliError } from './errors.js';
import { formatEvent, type Output, ProgressPrinter, stderr, stdout } from './progress.js';

/** Flags of `rollout -f`. */
export interface RolloutFollowFlags extends ConnectionFlags {
  filename: string;
  timeout?: number;
}

/** One `rollout -f` run, in process (the CLI, the demo and tests share it). */
export interface FollowRun {
  objects: KubeObject[];
  /** The file's name for messages (`STDIN` for -). */
  source: string;
  /** `-n`. */
  namespace?: string;
  /** Give up after this long (ms; 0 or undefined = never). */
  timeoutMs?: number;
  signal?: AbortSignal;
  out?: Output;
  err?: Output;
  informer?: InformerOptions<KubeObject>;
  /** Called once the changes are applied and the Deployments are being followed; `print` keeps the live line intact. */
  onFollowing?: (follower: RolloutFollower, print: (line: string) => void) => void;
  /** Each event shown (after it was printed). */
  onEvent?: (event: FollowedEvent) => void;
}

/** What a run did. `error` is the command's one-line error when it failed. */
export interface FollowReport {
  applied: ApplyResult[];
  outcomes: TargetOutcome[];
  follower: RolloutFollower;
  error?: string;
}

const TIMED_OUT = 'timed out waiting for the condition';

/** Applies and follows; prints as it goes; never throws for a failed rollout (see `error`). */
export async function runRolloutFollow(kube: KubeClient, run: FollowRun): Promise<FollowReport> {
  const out = run.out ?? stdout;
  const namespaces = run.objects
    .filter(isDeployment)
    .map((d) => d.metadata?.namespace || run.namespace || kube.namespace);
  const printer = new ProgressPrinter(out);
  const errOut = run.err ?? stderr;
  let lastWarning = '';
  const follower = new RolloutFollower(kube, namespaces, {
    informer: run.informer,
    // After the first sync the informers retry every failure themselves: say so once per new failure.
    onError: (informer, err) => {
      const line = `warning: watching ${informer.replace('/', ' in ')} failed (retrying): ${messageOf(err)}`;
      if (line !== lastWarning) errOut.write(`${line}\n`);
      lastWarning = line;
    },
    onEvent: (e) => {
      printer.line(formatEvent(e));
      run.onEvent?.(e);
    },
    onStatus: (target, status) => printer.status(keyOf(target), status.message),
  });
  // Baseline before the change: every event of the rollout is newer than what is listed now.
  const ac = new AbortController();
  const timer = run.timeoutMs ? setTimeout(() => ac.abort(new Error(TIMED_OUT)), run.timeoutMs) : undefined;
  const onAbort = () => ac.abort(run.signal?.reason);
  run.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await follower.start();
    } catch (err) {
      throw err instanceof FollowStartError ? new CliError(messageOf(err.cause)) : err;
    }
    const applied = await applyAndPrint(kube, run.objects, {
      namespace: run.namespace,
      source: run.source,
      // As `kubectl apply`, whose --validate is strict by default: an unknown field is an error.
      fieldValidation: 'Strict',
      out: { write: (t) => printer.line(t.replace(/\n$/, '')) },
      err: run.err,
    });
    const targets = applied.filter((r) => r.type.kind === 'Deployment').map(targetOf);
    run.onFollowing?.(follower, (line) => printer.line(line));
    const outcomes = await follower.follow(targets, ac.signal);
    const failed = outcomes.filter((o) => !o.ok);
    printer.close(failed.length > 0);
    if (out.isTTY) for (const o of outcomes) if (o.ok) out.write(`${o.status.message}\n`);
    for (const o of failed) explain(out, o);
    return { applied, outcomes, follower, error: failed.length > 0 ? errorOf(failed) : undefined };
  } finally {
    printer.close();
    if (timer) clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
    await follower.stop();
  }
}

/** The `rollout -f` action. */
export async function rolloutFollow(flags: RolloutFollowFlags): Promise<void> {
  const { objects, source } = await loadManifests(flags.filename);
  const kube = await connect(flags);
  const ac = new AbortController();
  const interrupt = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    if (!objects.some(isDeployment)) stderr.write('warning: no Deployment in the file: applying only\n');
    const report = await runRolloutFollow(kube, {
      objects,
      source,
      namespace: flags.namespace,
      timeoutMs: flags.timeout,
      signal: ac.signal,
    });
    if (report.error) throw new CliError(report.error, report.error === 'interrupted' ? 130 : 1);
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await kube.close();
  }
}

/** A failure's line: kubectl's `Error from server (...)` for API answers, the message otherwise. */
function messageOf(err: unknown): string {
  if (err instanceof StatusError) return serverErrorLine(err);
  return err instanceof Error ? err.message : String(err);
}

function isDeployment(o: KubeObject): boolean {
  return (
    o.kind === 'Deployment' &&
    (o.apiVersion === 'apps/v1' || o.apiVersion?.startsWith('extensions/') === true)
  );
}

function targetOf(r: ApplyResult): RolloutTarget {
  const m = r.object.metadata ?? {};
  return { namespace: r.namespace ?? '', name: m.name ?? '', uid: m.uid, generation: m.generation };
}

function keyOf(t: RolloutTarget): string {
  return `${t.namespace}/${t.name}`;
}

/** Prints the Warning events behind a failure (the latest per object and reason). */
function explain(out: Output, o: Extract<TargetOutcome, { ok: false }>): void {
  const name = JSON.stringify(o.target.name);
  if (o.warnings.length === 0) {
    out.write(`No Warning events were recorded for deployment ${name}.\n`);
    return;
  }
  out.write(`Warning events for deployment ${name}:\n`);
  for (const w of o.warnings) out.write(`  ${formatEvent(w)}\n`);
}

function errorOf(failed: Array<Extract<TargetOutcome, { ok: false }>>): string {
  const first = failed[0].error;
  if (first instanceof RolloutAbortedError) return first.message;
  const messages = [...new Set(failed.map((f) => f.error.message))];
  return messages.join('; ');
}
