/**
 * Containers that run to completion: in a pod whose restartPolicy is Never or OnFailure (a Job's
 * pod), each container runs for a while and exits, as a real one would. How long and with which
 * exit code is what a test asks for, in the way it would write the pod for a real cluster or in
 * an annotation:
 *
 * - the annotations `sim.watchmark.dev/exit-code` and `sim.watchmark.dev/run-seconds` on the pod
 *   (a Job's pod template), for every container; `sim.watchmark.dev/exit-code.<container>` and
 *   `sim.watchmark.dev/run-seconds.<container>` for one;
 * - else the container's shell script, `command`/`args` of the form `sh -c "sleep 2; exit 3"`:
 *   its `sleep N` steps add to the run time, its `exit N` is the exit code (`false` exits 1);
 * - else exit 0 after the readiness delay (timing.readyMs).
 *
 * The kubelet then reports the container terminated (reason Completed or Error), and the pod
 * Succeeded when every container exited 0, Failed when one did not (Never). Under OnFailure a
 * failed container starts again after a back-off doubling from timing.backoffMs, its restartCount
 * counting up, its last state the failure (kuberuntime's CrashLoopBackOff), the pod Running.
 */

/** The annotation prefixes a test sets on a pod (template). */
export const EXIT_CODE_ANNOTATION = 'sim.watchmark.dev/exit-code';
export const RUN_SECONDS_ANNOTATION = 'sim.watchmark.dev/run-seconds';

/** How one container run ends. */
export interface ExitPlan {
  runMs: number;
  exitCode: number;
}

/** The container fields the plan reads. */
interface ContainerSpec {
  name: string;
  command?: string[];
  args?: string[];
}

/** Whether a pod's containers run to completion (restartPolicy Never or OnFailure). */
export function runsToCompletion(restartPolicy: string | undefined): boolean {
  return restartPolicy === 'Never' || restartPolicy === 'OnFailure';
}

function number(v: string | undefined): number | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

/** The shell script of `sh -c SCRIPT` (or bash, ash, with `-c` in command or args), if any. */
function shellScript(c: ContainerSpec): string | undefined {
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  const shell = argv[0]?.split('/').at(-1);
  if (!shell || !['sh', 'bash', 'ash', 'dash'].includes(shell)) return undefined;
  const dashC = argv.indexOf('-c');
  return dashC > 0 ? argv[dashC + 1] : undefined;
}

/** What a script's `sleep N` and `exit N` steps (split on `;`, `&&`, newlines) make of a run. */
function scriptPlan(script: string): Partial<ExitPlan> {
  let runMs = 0;
  let exitCode: number | undefined;
  for (const step of script.split(/;|&&|\n/).map((s) => s.trim())) {
    const sleep = /^sleep\s+(\d+(?:\.\d+)?)s?$/.exec(step);
    if (sleep) runMs += Number(sleep[1]) * 1000;
    const exit = /^exit(?:\s+(\d+))?$/.exec(step);
    if (exit) {
      exitCode = Number(exit[1] ?? 0);
      break;
    }
    if (step === 'false') {
      exitCode = 1;
      break;
    }
  }
  return { runMs, exitCode };
}

/** How container `c` of a pod with these annotations runs (see the module comment). */
export function exitPlan(
  c: ContainerSpec,
  annotations: Record<string, string> | undefined,
  defaultRunMs: number,
): ExitPlan {
  const a = annotations ?? {};
  const script = shellScript(c);
  const fromScript = script === undefined ? {} : scriptPlan(script);
  const runSeconds = number(a[`${RUN_SECONDS_ANNOTATION}.${c.name}`]) ?? number(a[RUN_SECONDS_ANNOTATION]);
  const exitCode = number(a[`${EXIT_CODE_ANNOTATION}.${c.name}`]) ?? number(a[EXIT_CODE_ANNOTATION]);
  return {
    runMs:
      runSeconds !== undefined ? runSeconds * 1000 : script !== undefined ? fromScript.runMs! : defaultRunMs,
    exitCode: Math.trunc(exitCode ?? fromScript.exitCode ?? 0),
  };
}

/** A container's runtime state, as the pod worker keeps it. */
export interface CompletingRun {
  spec: ContainerSpec;
  containerID?: string;
  startedAt?: string;
  finishedAt?: string;
  waiting?: { reason: string; message?: string };
  exitCode?: number;
  restarts?: number;
  /** The last run's terminated state, once restarted (`lastState.terminated`). */
  lastTerminated?: Record<string, unknown>;
}

/** What running a container to its exit needs from its pod worker. */
export interface CompletionHost {
  /** Sleeps on the kubelet's clock; false once the pod is going. */
  wait(ms: number): Promise<boolean>;
  /** The clock's time, RFC 3339. */
  now(): string;
  publish(): void;
  event(type: 'Normal' | 'Warning', reason: string, message: string, run: CompletingRun): void;
  /** `name_namespace(uid)`, as the kubelet names a pod in messages. */
  podRef: string;
  backoffMs: number;
}

/**
 * Runs a started container to its exit: `plan.runMs`, then terminated with `plan.exitCode`. Under
 * OnFailure (`restart`) a non-zero exit waits out CrashLoopBackOff and runs again, for as long as
 * the pod lives. Resolves false when the pod went away first.
 */
export async function runUntilExit(
  host: CompletionHost,
  r: CompletingRun,
  plan: ExitPlan,
  restart: boolean,
): Promise<boolean> {
  let backoff = host.backoffMs;
  for (;;) {
    if (!(await host.wait(plan.runMs))) return false;
    r.finishedAt = host.now();
    r.exitCode = plan.exitCode;
    if (plan.exitCode === 0 || !restart) {
      host.publish();
      return true;
    }
    r.lastTerminated = terminatedState(r);
    r.restarts = (r.restarts ?? 0) + 1;
    r.startedAt = undefined;
    r.finishedAt = undefined;
    r.exitCode = undefined;
    const name = r.spec.name;
    r.waiting = {
      reason: 'CrashLoopBackOff',
      message: `back-off ${Math.round(backoff / 1000)}s restarting failed container=${name} pod=${host.podRef}`,
    };
    host.event('Warning', 'BackOff', `Back-off restarting failed container ${name} in pod ${host.podRef}`, r);
    host.publish();
    if (!(await host.wait(backoff))) return false;
    backoff = Math.min(backoff * 2, host.backoffMs * 30);
    r.waiting = undefined;
    r.startedAt = host.now();
    host.event('Normal', 'Started', `Started container ${name}`, r);
    host.publish();
  }
}

/** A finished run's `state.terminated`. */
export function terminatedState(r: CompletingRun): Record<string, unknown> {
  const exitCode = r.exitCode ?? 0;
  return {
    exitCode,
    reason: exitCode === 0 ? 'Completed' : 'Error',
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    containerID: r.containerID,
  };
}

/** Runs a pod's containers to their exits; the pod's phase then, undefined when the pod went first. */
export async function runPodToCompletion(
  host: CompletionHost,
  runs: CompletingRun[],
  pod: { spec?: object; metadata?: { annotations?: Record<string, string> } },
  defaultRunMs: number,
): Promise<'Succeeded' | 'Failed' | undefined> {
  const restart = (pod.spec as { restartPolicy?: unknown } | undefined)?.restartPolicy === 'OnFailure';
  const plans = runs.map((r) => exitPlan(r.spec, pod.metadata?.annotations, defaultRunMs));
  const exited = await Promise.all(runs.map((r, i) => runUntilExit(host, r, plans[i]!, restart)));
  if (!exited.every(Boolean)) return undefined;
  return runs.every((r) => r.exitCode === 0) ? 'Succeeded' : 'Failed';
}
