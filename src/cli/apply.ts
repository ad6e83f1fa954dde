import { Command } from 'commander';
import type { KubeClient } from '../client/client.js';
import { type ApplyResult, applyAll } from '../client/kubectl/apply.js';
import { DEFAULT_CRD_WAIT_MS } from '../client/kubectl/crd-wait.js';
import { ManifestError, parseManifests } from '../client/kubectl/manifest.js';
import type { KubeObject } from '../protocol/events.js';
import { type ConnectionFlags, connect, connectionOptions, readManifestFile } from './connect.js';
import { CliError, durationArg, errorLine } from './errors.js';
import { type Output, stderr, stdout } from './progress.js';

interface ApplyFlags extends ConnectionFlags {
  filename: string;
  crdTimeout: number;
}

/** Reads and parses `-f FILE|-`; a bad manifest is a one-line CLI error. */
export async function loadManifests(file: string): Promise<{ objects: KubeObject[]; source: string }> {
  const { text, source } = await readManifestFile(file);
  let objects: KubeObject[];
  try {
    objects = await parseManifests(text, source);
  } catch (err) {
    if (err instanceof ManifestError) throw new CliError(err.message);
    throw err;
  }
  if (objects.length === 0) throw new CliError(`no objects passed to apply (${source} holds none)`);
  return { objects, source };
}

/**
 * Applies `objects` printing kubectl's lines (`deployment.apps/web created`)
 * to stdout and its warnings to stderr. A failed object does not stop the
 * others (as kubectl); the command then fails with the last error.
 */
export async function applyAndPrint(
  kube: KubeClient,
  objects: KubeObject[],
  opts: { namespace?: string; source: string; out?: Output; err?: Output; crdWaitMs?: number },
): Promise<ApplyResult[]> {
  const out = opts.out ?? stdout;
  const errOut = opts.err ?? stderr;
  const { results, errors } = await applyAll(kube, objects, {
    namespace: opts.namespace,
    source: opts.source,
    crdWaitMs: opts.crdWaitMs,
    onResult: (r) => {
      if (r.warning) errOut.write(`${r.warning}\n`);
      out.write(`${r.ref} ${r.action}\n`);
    },
  });
  const last = errors.pop();
  // One line per failed object; the last one is the command's own error (and exit code).
  for (const err of errors) errOut.write(`${errorLine(err.message)}\n`);
  if (last) throw new CliError(last.message);
  return results;
}

/**
 * `watchmark apply -f FILE|-`: kubectl's client-side apply. Unlike kubectl, a
 * CustomResourceDefinition and objects of its kind in one file apply in one
 * go: the objects wait (up to --crd-timeout) for the CRD to be Established.
 */
export function applyCommand(): Command {
  return connectionOptions(
    new Command('apply')
      .description(
        'create or update the objects of a YAML/JSON file as kubectl apply does (last-applied annotation, three-way merge)',
      )
      .requiredOption('-f, --filename <file>', 'manifest file (multi-document YAML or JSON); - reads stdin')
      .option('-n, --namespace <ns>', "namespace for objects that name none (default: the context's)")
      .option(
        '--crd-timeout <duration>',
        'how long objects of a kind a CustomResourceDefinition earlier in the file defines wait for it to be Established',
        durationArg,
        DEFAULT_CRD_WAIT_MS,
      ),
  ).action(async (flags: ApplyFlags) => {
    const { objects, source } = await loadManifests(flags.filename);
    const kube = await connect(flags);
    try {
      await applyAndPrint(kube, objects, { namespace: flags.namespace, source, crdWaitMs: flags.crdTimeout });
    } finally {
      await kube.close();
    }
  });
}
