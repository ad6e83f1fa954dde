import { Command, Option } from 'commander';
import { Checkpoint } from '../client/checkpoint/checkpoint.js';
import type { ResourceType } from '../client/watch/resources.js';
import { describeError } from '../client/watch/watch-errors.js';
import type { WatcherEvent } from '../client/watch/watcher-types.js';
import { formatDuration } from '../protocol/duration.js';
import { StatusError } from '../protocol/status.js';
import { type ConnectionFlags, connect, connectionOptions } from './connect.js';
import { CliError, durationArg, errorLine } from './errors.js';

interface WatchFlags extends ConnectionFlags {
  namespace?: string;
  allNamespaces?: boolean;
  selector?: string;
  fieldSelector?: string;
  output?: 'json';
  bookmarks: boolean;
  initial: 'list' | 'stream';
  for?: number;
  stats?: boolean;
  exitOnError?: boolean;
  checkpoint?: string;
}

/** One event as a text line: type, resourceVersion, namespace/name. */
export function formatEventLine(e: WatcherEvent, counts: { init: number }): string {
  const pad = (s: string) => s.padEnd(9);
  switch (e.type) {
    case 'init':
      counts.init = 0;
      if (e.cause === 'checkpoint') return `${pad('RESUME')}          (checkpoint)`;
      return `${pad(e.cause === 'initial' ? 'LIST' : 'RELIST')}          (${e.cause})`;
    case 'initApply': {
      counts.init++;
      const m = e.object.metadata ?? {};
      return `${pad('ADDED')} ${(m.resourceVersion ?? '').padEnd(9)} ${m.namespace ? `${m.namespace}/` : ''}${m.name ?? ''}`;
    }
    case 'initDone':
      return `${pad('SYNCED')} ${e.resourceVersion.padEnd(9)} (${counts.init} objects)`;
    case 'apply':
    case 'delete': {
      const m = e.object.metadata ?? {};
      const type = e.type === 'delete' ? 'DELETED' : 'APPLIED';
      return `${pad(type)} ${(m.resourceVersion ?? '').padEnd(9)} ${m.namespace ? `${m.namespace}/` : ''}${m.name ?? ''}`;
    }
    case 'bookmark':
      return `${pad('BOOKMARK')} ${e.resourceVersion}`;
  }
}

/** `watchmark watch RESOURCE`: follow a resource, kubectl-style flags, one line per event. */
export function watchCommand(): Command {
  return connectionOptions(
    new Command('watch')
      .description('watch a resource with bookmarks, resuming without relisting; one line per event')
      .argument(
        '<resource>',
        'resource type: pods, po, deployments, deploy, or a custom type (widgets, wg, widgets.example.com)',
      )
      .option('-n, --namespace <ns>', "namespace (default: the context's)")
      .option('-A, --all-namespaces', 'watch every namespace')
      .option('-l, --selector <selector>', 'label selector, e.g. app=web,tier!=db')
      .option('--field-selector <selector>', 'field selector, e.g. spec.nodeName=node-1'),
  )
    .addOption(new Option('-o, --output <format>', 'print JSON lines instead of text').choices(['json']))
    .option('--no-bookmarks', 'do not ask for bookmarks')
    .addOption(
      new Option('--initial <how>', 'initial state by paginated list or streaming list')
        .choices(['list', 'stream'])
        .default('list'),
    )
    .option(
      '--for <duration>',
      'stop after this long (e.g. 30s); exit 0 if the watch synced, 1 if it never did',
      durationArg,
    )
    .option('--stats', "print the watcher's counters as one JSON line on exit (also on Ctrl-C)")
    .option(
      '--exit-on-error',
      'exit 1 at the first failure instead of retrying with backoff (a 410 Expired still relists)',
    )
    .option(
      '--checkpoint <file>',
      'save what was watched to FILE; on the next start resume from it, not a list',
    )
    .action(async (resource: string, flags: WatchFlags) => {
      const kube = await connect(flags);
      let type: ResourceType;
      // kubectl prints the mapper's warnings (a short name two groups use) this way.
      kube.mapper.onWarning = (w) => process.stderr.write(`Warning: ${w}\n`);
      try {
        type = await kube.resolveType(resource);
      } catch (err) {
        kube.transport.close();
        if (err instanceof StatusError) throw new CliError(describeError(err));
        throw new CliError((err as Error).message);
      }
      const ac = new AbortController();
      // Every failure is one line on stderr, from the watcher's decision about it; the
      // watcher retries it with its backoff, and the command goes on until --for ends or
      // it is interrupted.
      let lastFailure: string | undefined;
      let failed: string | undefined;
      const checkpoint = checkpointFor(kube, type, flags);
      const watcher = kube.watcher(
        type,
        {
          namespace: flags.namespace,
          allNamespaces: flags.allNamespaces,
          labelSelector: flags.selector,
          fieldSelector: flags.fieldSelector,
        },
        {
          bookmarks: flags.bookmarks,
          initial: flags.initial,
          signal: ac.signal,
          requestTimeoutMs: flags.requestTimeout || undefined,
          initialState: checkpoint?.load,
          logger: {
            // Failures come to onError; the logger says what is not one (a stream cut or silent, resumed).
            warn: (o, msg) => {
              if (!('err' in o)) process.stderr.write(`note: ${msg}\n`);
            },
            info: (o, msg) => {
              const { err, resourceVersion } = o as { err?: string; resourceVersion?: string };
              if (err) process.stderr.write(`note: ${msg} from ${resourceVersion || '""'} (${err})\n`);
            },
          },
          onError: (err, failure) => {
            const line = `${failure?.what ?? 'watch failed'}: ${describeError(err)}`;
            if (failure?.next.action === 'list' && failure.next.cause === 'expired') {
              // Not a failure: the resourceVersion left the server's history and the watcher
              // relists, as it should (the RELIST line follows).
              process.stderr.write(`note: ${line}\n`);
              return;
            }
            lastFailure = line;
            if (flags.exitOnError) {
              failed = line;
              ac.abort();
              return;
            }
            process.stderr.write(`${errorLine(`${line} (retrying)`)}\n`);
          },
        },
      );
      let interrupted = false;
      const interrupt = () => {
        interrupted = true;
        ac.abort();
      };
      process.once('SIGINT', interrupt);
      process.once('SIGTERM', interrupt);
      const timer = flags.for !== undefined ? setTimeout(() => ac.abort(), flags.for) : undefined;
      const counts = { init: 0 };
      let synced = false;
      try {
        for await (const e of watcher) {
          if (e.type === 'initDone') synced = true;
          checkpoint?.track(e);
          if (flags.output === 'json') {
            const line: Record<string, unknown> = { type: e.type };
            if ('cause' in e) line.cause = e.cause;
            if ('resourceVersion' in e) line.resourceVersion = e.resourceVersion;
            if ('object' in e) line.object = e.object;
            process.stdout.write(`${JSON.stringify(line)}\n`);
          } else {
            process.stdout.write(`${formatEventLine(e, counts)}\n`);
          }
        }
      } finally {
        if (timer) clearTimeout(timer);
        process.off('SIGINT', interrupt);
        process.off('SIGTERM', interrupt);
        await checkpoint?.close();
        kube.transport.close();
        if (flags.stats)
          process.stdout.write(
            `${JSON.stringify({ stats: watcher.metrics, checkpoint: checkpoint?.status })}\n`,
          );
      }
      if (failed !== undefined) throw new CliError(failed);
      if (!synced) {
        const why = interrupted
          ? 'interrupted before the watch synced'
          : `the watch did not sync within ${formatDuration(flags.for ?? 0)}`;
        throw new CliError(
          `${why}${lastFailure ? `; last failure: ${lastFailure}` : ''}`,
          interrupted ? 130 : 1,
        );
      }
    });
}

/** `--checkpoint FILE`: the checkpoint of what this command watches (its warnings on stderr, as `warning:` lines). */
function checkpointFor(
  kube: Awaited<ReturnType<typeof connect>>,
  type: ResourceType,
  flags: WatchFlags,
): Checkpoint | undefined {
  if (!flags.checkpoint) return undefined;
  const selection = {
    namespace: flags.namespace,
    allNamespaces: flags.allNamespaces,
    labelSelector: flags.selector,
    fieldSelector: flags.fieldSelector,
  };
  return new Checkpoint({
    path: flags.checkpoint,
    identity: (signal) => kube.checkpointIdentity(type, selection, signal),
    logger: {
      warn: (o, msg) => {
        const err = (o as { err?: string }).err;
        process.stderr.write(`warning: ${msg}${err ? `: ${err}` : ''}\n`);
      },
    },
  });
}
