/**
 * Running the hooks of one admission call: the mutating ones in order, each patch applied
 * before the next is called (mutating/dispatcher.go `Dispatch` and `callAttrMutatingHook`), the
 * validating ones all at once, the first refusal answered (validating/dispatcher.go `Dispatch`).
 * Each hook is a {@link Hook}: a configured webhook or one of the in-process hooks.
 */
import type { KubeObject } from '../../protocol/events.js';
import { applyJsonPatch } from '../../protocol/patch/index.js';
import { StatusError } from '../../protocol/status.js';
import { jsonEqual } from '../registry/meta.js';
import { type AdmissionAttributes, admissionRequest, type Invocation } from './attributes.js';
import {
  CallingWebhookError,
  deniedError,
  dryRunUnsupported,
  internalError,
  patchWithoutObject,
} from './errors.js';
import type { AdmissionAnswer, AdmissionRequest } from './types.js';
import type { Webhook } from './webhooks.js';

/** One hook as the dispatcher sees it. */
export interface Hook {
  name: string;
  failurePolicy: 'Fail' | 'Ignore';
  /** undefined: none declared (only possible for a configuration stored by an older API). */
  sideEffects: string | undefined;
  /** A mutating webhook with `reinvocationPolicy: IfNeeded`. */
  reinvokeIfNeeded?: boolean;
  /** The invocation when the hook applies to `attrs`; undefined to skip it. */
  matches(attrs: AdmissionAttributes): Promise<Invocation | undefined>;
  /** Calls it; throws {@link CallingWebhookError} when no answer could be had. */
  call(request: AdmissionRequest): Promise<AdmissionAnswer>;
}

/** Where a dispatch reports what it does not answer with: warnings, and hooks failed open. */
export interface DispatchSinks {
  warn(text: string): void;
  log(message: string): void;
}

/**
 * dispatcher.go `callAttrMutatingHook` / `callHook` on a dry run: a hook must declare it has no
 * side effects (None or NoneOnDryRun).
 */
function checkDryRun(hook: Hook, attrs: AdmissionAttributes): void {
  if (!attrs.dryRun) return;
  if (hook.sideEffects === undefined) throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil');
  if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupported(hook.name);
}

/** One hook's answer, or undefined when it failed open (failurePolicy Ignore). */
async function invoke(
  hook: Hook,
  attrs: AdmissionAttributes,
  invocation: Invocation,
  object: KubeObject | undefined,
  sinks: DispatchSinks,
): Promise<AdmissionAnswer | undefined> {
  try {
    checkDryRun(hook, attrs);
    const answer = await hook.call(admissionRequest(attrs, invocation, object));
    for (const w of answer.warnings ?? []) sinks.warn(w);
    if (!answer.allowed) throw deniedError(hook.name, answer.status);
    return answer;
  } catch (err) {
    if (!(err instanceof CallingWebhookError)) throw err;
    // Failing open is logged, never answered (dispatcher.go: klog "Failed calling webhook, failing open").
    if (hook.failurePolicy === 'Ignore') {
      sinks.log(`Failed calling webhook, failing open ${hook.name}: ${err.message}`);
      return undefined;
    }
    throw internalError(err.message);
  }
}

/**
 * Runs the mutating hooks in order on `attrs.object`; returns the object as the last patch left
 * it (the same object when no hook patched it).
 *
 * Reinvocation (mutating/reinvocationcontext.go, dispatcher.go `Dispatch`): when a hook changes
 * the object, every `IfNeeded` hook called before it is marked; if anything changed, one more
 * round calls the marked hooks again, in order.
 */
export async function dispatchMutating(
  hooks: readonly Hook[],
  attrs: AdmissionAttributes,
  sinks: DispatchSinks,
): Promise<KubeObject | undefined> {
  let object = attrs.object;
  const previouslyInvoked = new Set<Hook>();
  const reinvoke = new Set<Hook>();
  let changedAny = false;
  const round = async (reinvoking: boolean) => {
    for (const hook of hooks) {
      if (reinvoking && !reinvoke.has(hook)) continue;
      const invocation = await hook.matches({ ...attrs, object });
      if (!invocation) continue;
      const answer = await invoke(hook, attrs, invocation, object, sinks);
      const patched = answer?.patch?.length
        ? applyAnswerPatch(hook, invocation, object, answer.patch)
        : object;
      if (patched !== object && !jsonEqual(patched, object)) {
        changedAny = true;
        for (const h of previouslyInvoked) reinvoke.add(h);
      }
      object = patched;
      if (hook.reinvokeIfNeeded) previouslyInvoked.add(hook);
    }
  };
  await round(false);
  if (changedAny && reinvoke.size > 0) await round(true);
  return object;
}

/** A hook's JSON patch applied to `object` (at the invocation's version). */
function applyAnswerPatch(
  hook: Hook,
  invocation: Invocation,
  object: KubeObject | undefined,
  patch: NonNullable<AdmissionAnswer['patch']>,
): KubeObject {
  if (object === undefined) throw patchWithoutObject(hook.name);
  const toVersion = invocation.toVersion ?? ((o: KubeObject) => o);
  const fromVersion = invocation.fromVersion ?? ((o: KubeObject) => o);
  let patched: unknown;
  try {
    patched = applyJsonPatch(structuredClone(toVersion(object)), patch);
  } catch (err) {
    // dispatcher.go: a patch that does not apply is an internal error.
    throw internalError(err instanceof StatusError ? (err.status.message ?? '') : (err as Error).message);
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched))
    throw internalError('the patched object is not an object');
  return fromVersion(patched as KubeObject);
}

/** Runs the validating hooks together; throws the first refusal in hook order. */
export async function dispatchValidating(
  hooks: readonly Hook[],
  attrs: AdmissionAttributes,
  sinks: DispatchSinks,
): Promise<void> {
  const calls: Promise<unknown>[] = [];
  for (const hook of hooks) {
    const invocation = await hook.matches(attrs);
    if (invocation) calls.push(invoke(hook, attrs, invocation, attrs.object, sinks));
  }
  if (calls.length === 0) return;
  const outcomes = await Promise.allSettled(calls);
  for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
}

/** The hook of a configured webhook, called over HTTPS by `call`. */
export function webhookHook(
  webhook: Webhook,
  matches: Hook['matches'],
  call: (webhook: Webhook, request: AdmissionRequest) => Promise<AdmissionAnswer>,
): Hook {
  return {
    name: webhook.name,
    failurePolicy: webhook.failurePolicy,
    sideEffects: webhook.sideEffects,
    reinvokeIfNeeded: webhook.reinvokeIfNeeded,
    matches,
    call: (request) => call(webhook, request),
  };
}
