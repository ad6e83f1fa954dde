import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import type { KubeClient } from '../client/client.js';
import { type ApplyAllOptions, type ApplyResult, applyAll } from '../client/kubectl/apply.js';
import { DEFAULT_CRD_WAIT_MS } from '../client/kubectl/crd-wait.js';
import { ManifestError, parseManifests } from '../client/kubectl/manifest.js';
import { SERVER_SIDE_APPLY_MANAGER } from '../client/kubectl/server-side-apply.js';
import type { FieldValidation } from '../client/rest-options.js';
import type { KubeObject } from '../protocol/events.js';
import { type ConnectionFlags, connect, connectionOptions, readManifestFile } from './connect.js';
import { CliError, durationArg } from './errors.js';
import { type Output, stderr, stdout } from './progress.js';

interface ApplyFlags extends ConnectionFlags {
  filename: string;
  crdTimeout: number;
  serverSide?: boolean;
  forceConflicts?: boolean;
  fieldManager?: string;
  dryRun?: DryRun;
  validate: FieldValidation;
}

/** kubectl's `--dry-run` strategies (cmdutil.GetDryRunStrategy). */
type DryRun = 'none' | 'server' | 'client';

/** The extensions kubectl reads from a directory given to `-f` (cli-runtime resource.FileExtensions). */
const MANIFEST_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** The manifests of `-f`: one file, `-`, or a directory's files; each object with the file it came from. */
export interface Manifests {
  objects: KubeObject[];
  /** The file each object came from (`STDIN` for `-`), by index. */
  sources: string[];
  /** What was named: the file, the directory or `STDIN`. */
  source: string;
}

/**
 * Reads and parses `-f FILE|DIR|-`; a bad manifest is a one-line CLI error. A
 * directory is read as kubectl reads one without `-R`: its `.json`, `.yaml`
 * and `.yml` files, in name order, subdirectories skipped.
 */
export async function loadManifests(file: string): Promise<Manifests> {
  const files = file !== '-' && (await isDirectory(file)) ? await manifestFiles(file) : [file];
  const objects: KubeObject[] = [];
  const sources: string[] = [];
  for (const one of files) {
    const { text, source } = await readManifestFile(one);
    try {
      for (const object of await parseManifests(text, source)) {
        objects.push(object);
        sources.push(source);
      }
    } catch (err) {
      if (err instanceof ManifestError) throw new CliError(err.message);
      throw err;
    }
  }
  const source = file === '-' ? 'STDIN' : file;
  if (objects.length === 0) throw new CliError(`no objects passed to apply (${source} holds none)`);
  return { objects, sources, source };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (err) {
    // A missing path is reported by the read, in kubectl's words.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

async function manifestFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && MANIFEST_EXTENSIONS.has(extname(e.name)))
    .map((e) => e.name)
    .sort()
    .map((name) => join(dir, name));
}

/** Options of {@link applyAndPrint}. */
export interface ApplyPrintOptions
  extends Pick<
    ApplyAllOptions,
    | 'namespace'
    | 'source'
    | 'sources'
    | 'crdWaitMs'
    | 'serverSide'
    | 'dryRun'
    | 'fieldManager'
    | 'fieldValidation'
  > {
  out?: Output;
  err?: Output;
}

/**
 * Applies `objects` printing kubectl's lines (`deployment.apps/web created`,
 * `... serverside-applied`, `(server dry run)` after each in a dry run) to
 * stdout and its warnings to stderr. A failed object does not stop the
 * others (as kubectl); the command then fails with its error, or prints
 * several as kubectl prints an aggregate and exits 1.
 */
export async function applyAndPrint(
  kube: KubeClient,
  objects: KubeObject[],
  opts: ApplyPrintOptions,
): Promise<ApplyResult[]> {
  const out = opts.out ?? stdout;
  const errOut = opts.err ?? stderr;
  const { results, errors } = await applyAll(kube, objects, {
    ...opts,
    onResult: (r) => {
      if (r.warning) errOut.write(`${r.warning}\n`);
      // cmdutil.PrintFlagsWithDryRunStrategy: the operation gets " (server dry run)".
      out.write(`${r.ref} ${r.action}${r.dryRun ? ' (server dry run)' : ''}\n`);
    },
  });
  if (errors.length === 1) throw new CliError(errors[0].message);
  if (errors.length > 1) {
    // kubectl returns an aggregate, which cmdutil.CheckErr prints with MultipleErrors(``, errs): each
    // failure's message on its own line, API errors as `Error from server (...)`, no `error: ` prefix.
    for (const err of errors) errOut.write(`${err.message}\n`);
    // Reported already: exit 1 with nothing more (main treats a CommanderError as a finished exit).
    throw new CommanderError(1, 'watchmark.apply.failed', '');
  }
  return results;
}

/** kubectl's flag checks (apply.go, `ApplyOptions.Complete`), in its words. */
function checkFlags(flags: ApplyFlags): void {
  if (flags.forceConflicts && !flags.serverSide) {
    throw new CliError('--force-conflicts only works with --server-side');
  }
  if (flags.dryRun === 'client' && flags.serverSide) {
    throw new CliError(
      "--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)",
    );
  }
  if (flags.dryRun === 'client') {
    throw new CliError('--dry-run=client is not supported by watchmark apply: use --dry-run=server');
  }
}

/** kubectl's `--validate` (cmdutil.GetValidationDirective): sent as the `fieldValidation` of every write. */
function validateArg(value: string): FieldValidation {
  const mode = { true: 'Strict', strict: 'Strict', warn: 'Warn', false: 'Ignore', ignore: 'Ignore' }[value];
  if (mode) return mode as FieldValidation;
  throw new InvalidArgumentError(
    `invalid - validate option ${JSON.stringify(value)}; must be one of: strict (or true), warn, ignore (or false)`,
  );
}

function dryRunArg(value: string): DryRun {
  if (value === 'none' || value === 'server' || value === 'client') return value;
  throw new InvalidArgumentError(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
}

/**
 * `watchmark apply -f FILE|DIR|-`: kubectl's client-side apply, or with
 * `--server-side` its server-side apply. Unlike kubectl, a
 * CustomResourceDefinition and objects of its kind in one file apply in one
 * go: the objects wait (up to --crd-timeout) for the CRD to be Established.
 */
export function applyCommand(): Command {
  return connectionOptions(
    new Command('apply')
      .description(
        'create or update the objects of a YAML/JSON file as kubectl apply does (last-applied annotation and three-way merge, or --server-side)',
      )
      .requiredOption(
        '-f, --filename <file>',
        'manifest file (multi-document YAML or JSON), a directory of them (its .json, .yaml, .yml files), or - for stdin',
      )
      .option('-n, --namespace <ns>', "namespace for objects that name none (default: the context's)")
      .option(
        '--server-side',
        'apply on the server: it merges the object and tracks which manager owns each field',
      )
      .option(
        '--force-conflicts',
        'with --server-side: take the fields other managers own instead of failing',
      )
      .option(
        '--field-manager <name>',
        `the manager to own the applied fields (default ${SERVER_SIDE_APPLY_MANAGER} with --server-side, kubectl-client-side-apply without)`,
      )
      .option(
        '--validate <mode>',
        'what the server does with unknown or duplicate fields: strict (or true), warn, ignore (or false)',
        validateArg,
        'Strict' as FieldValidation,
      )
      .option(
        '--dry-run <strategy>',
        'none, or server: the server checks every object but stores nothing',
        dryRunArg,
      )
      .option(
        '--crd-timeout <duration>',
        'how long objects of a kind a CustomResourceDefinition earlier in the file defines wait for it to be Established',
        durationArg,
        DEFAULT_CRD_WAIT_MS,
      ),
  ).action(async (flags: ApplyFlags) => {
    checkFlags(flags);
    const { objects, sources, source } = await loadManifests(flags.filename);
    const kube = await connect(flags);
    try {
      await applyAndPrint(kube, objects, {
        namespace: flags.namespace,
        source,
        sources,
        crdWaitMs: flags.crdTimeout,
        dryRun: flags.dryRun === 'server',
        fieldManager: flags.fieldManager,
        fieldValidation: flags.validate,
        serverSide: flags.serverSide ? { force: flags.forceConflicts } : undefined,
      });
    } finally {
      await kube.close();
    }
  });
}
