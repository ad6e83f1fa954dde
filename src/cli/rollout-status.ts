/**
 * `watchmark rollout status TYPE/NAME`: the same lines, errors and exit
 * codes as `kubectl rollout status`, on an informer with bookmarks.
 */
import { InvalidArgumentError } from 'commander';
import type { KubeClient } from '../client/client.js';
import { RolloutStatusError, statusViewerFor } from '../client/rollout/index.js';
import { RolloutAbortedError, RolloutDeletedError, watchRolloutStatus } from '../client/rollout/watch.js';
import type { ResourceType } from '../client/watch/resources.js';
import { StatusError } from '../protocol/status.js';
import { type ConnectionFlags, connect, serverErrorLine } from './connect.js';
import { CliError } from './errors.js';

/** Flags of `rollout status` (connection flags and --timeout come from `rollout`). */
export interface RolloutStatusFlags extends ConnectionFlags {
  watch: boolean;
  revision: number;
  timeout?: number;
}

/** commander parser for kubectl's `--watch=false` style booleans. */
export function boolArg(raw: string): boolean {
  // `-w=false`: Go's pflag reads the value after `=`; commander hands over `=false`.
  const value = raw.startsWith('=') ? raw.slice(1) : raw;
  if (['true', 't', '1'].includes(value.toLowerCase())) return true;
  if (['false', 'f', '0'].includes(value.toLowerCase())) return false;
  throw new InvalidArgumentError(`invalid boolean ${JSON.stringify(value)}: want true or false`);
}

/** commander parser for `--revision`: a non-negative integer (0 = the latest). */
export function revisionArg(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`revision must be a positive integer: ${value}`);
  return Number(value);
}

/** Splits `deployment/web` or (`deployment`, `web`) into type and name; a type alone means "the one there is". */
export function parseTarget(resource: string, name: string | undefined): { type: string; name?: string } {
  const slash = resource.indexOf('/');
  if (slash >= 0) {
    if (name !== undefined)
      throw new CliError(
        'there is no need to specify a resource type as a separate argument when passing arguments in resource/name form',
      );
    const [type, n] = [resource.slice(0, slash), resource.slice(slash + 1)];
    if (!type || !n || n.includes('/'))
      throw new CliError(`arguments in resource/name form must have a single resource and name: ${resource}`);
    return { type, name: n };
  }
  return { type: resource, name };
}

/** Runs `rollout status`; throws a {@link CliError} carrying kubectl's message on failure. */
export async function rolloutStatus(
  resource: string,
  name: string | undefined,
  flags: RolloutStatusFlags,
): Promise<void> {
  const target = parseTarget(resource, name);
  const kube = await connect(flags);
  const ac = new AbortController();
  const timer =
    flags.timeout !== undefined && flags.timeout > 0
      ? setTimeout(() => ac.abort(new Error('timed out waiting for the condition')), flags.timeout)
      : undefined;
  const interrupt = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  try {
    await follow(kube, target, flags, ac.signal);
  } finally {
    if (timer) clearTimeout(timer);
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await kube.close();
  }
}

async function follow(
  kube: KubeClient,
  target: { type: string; name?: string },
  flags: RolloutStatusFlags,
  signal: AbortSignal,
): Promise<void> {
  let type: ResourceType;
  try {
    type = await kube.resolveType(target.type, signal);
  } catch (err) {
    if (err instanceof StatusError) throw new CliError(serverErrorLine(err));
    throw new CliError((err as Error).message);
  }
  const namespace = type.namespaced ? (flags.namespace ?? kube.namespace) : undefined;
  // kubectl reads the object first: a missing one is NotFound before any watch.
  let name: string;
  try {
    const only = target.name ?? (await onlyOne(kube, type, namespace, signal));
    if (only === undefined) {
      // kubectl's answer for an empty collection: a note, and success.
      process.stderr.write(`No resources found in ${namespace} namespace.\n`);
      return;
    }
    name = only;
    await kube.resource(type, namespace).get(name, { signal });
  } catch (err) {
    if (err instanceof StatusError) throw new CliError(serverErrorLine(err));
    throw err;
  }
  if (!statusViewerFor(type.group, type.kind)) {
    throw new CliError(
      `no status viewer has been implemented for ${type.group ? `${type.kind}.${type.group}` : type.kind}`,
    );
  }
  // kubectl prints a line per watch event, repeating itself whenever a status
  // change (readyReplicas, say) leaves the message as it was; print each new line once.
  let last: string | undefined;
  try {
    await watchRolloutStatus(kube, type, namespace, name, {
      revision: flags.revision,
      watch: flags.watch,
      signal,
      onStatus: (status) => {
        if (status.message !== last) process.stdout.write(`${status.message}\n`);
        last = status.message;
      },
    });
  } catch (err) {
    if (err instanceof RolloutStatusError || err instanceof RolloutDeletedError)
      throw new CliError(err.message);
    if (err instanceof RolloutAbortedError)
      throw new CliError(err.message, err.message === 'interrupted' ? 130 : 1);
    throw err;
  }
}

/** `rollout status deployment` (no name) works when the namespace holds exactly one. */
async function onlyOne(
  kube: KubeClient,
  type: ResourceType,
  namespace: string | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  const list = await kube.resource(type, namespace).list({ signal });
  if (list.items.length === 0) return undefined;
  if (list.items.length !== 1) {
    throw new CliError(
      `rollout status is only supported on individual resources and resource collections - ${list.items.length} resources were found`,
    );
  }
  return list.items[0].metadata?.name ?? '';
}
