/**
 * What a test cluster is seeded from: manifest files, folders and objects
 * (`readManifestSources`), CustomResourceDefinitions installed and waited
 * for until their kinds are served (`installCustomResourceDefinitions`), and
 * seed objects created in an order the server accepts (`createObjects`).
 * `testCluster` and `watchmark serve --crds/--objects` share them.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { type Clock, systemClock } from '../../protocol/clock.js';
import type { KubeObject } from '../../protocol/events.js';
import { isAlreadyExists, StatusError } from '../../protocol/status.js';
import type { KubeClient } from '../client.js';
import { NoKindMatchError } from '../restmapper/restmapper.js';
import { Watcher } from '../watch/watcher.js';
import { crdDefinition, DEFAULT_CRD_WAIT_MS } from './crd-wait.js';
import { ManifestError, parseManifests } from './manifest.js';
import { applyTarget } from './target.js';

/**
 * The extensions a folder's files must have to be read, as kubectl's
 * `FileExtensions` (k8s.io/cli-runtime/pkg/resource/builder.go). A file
 * named explicitly is read whatever its name (visitor.go
 * `ExpandPathsToFileVisitors`: "Don't check extension if the filepath was
 * passed explicitly").
 */
const MANIFEST_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** Where each object read by {@link readManifestSources} came from (a file, or `objects[i]`). */
const origins = new WeakMap<KubeObject, string>();

/** The file (or `objects[i]` for an object given as such) an object read by {@link readManifestSources} came from. */
export function manifestSourceOf(object: KubeObject): string | undefined {
  return origins.get(object);
}

/** An object the server refused while seeding; `ref` is `kind/namespace/name` (`kind/name` when cluster-scoped). */
export class SeedObjectError extends Error {
  readonly ref: string;
  /** The file the object came from, when known. */
  readonly source: string | undefined;
  override readonly cause: unknown;

  constructor(ref: string, source: string | undefined, message: string, cause?: unknown) {
    super(`${source ? `${source}: ` : ''}${ref}: ${message}`);
    this.name = 'SeedObjectError';
    this.ref = ref;
    this.source = source;
    this.cause = cause;
  }
}

/**
 * Reads manifests as `kubectl apply -f SOURCE -R` does, in order: a string
 * is a file (multi-document YAML or JSON) or a folder (its `*.yaml`,
 * `*.yml` and `*.json` files, subfolders included, in kubectl's walk order);
 * an object is copied. `List` kinds are flattened. A missing path or a
 * manifest that does not parse throws {@link ManifestError} naming the file
 * (and the document and line, where the parser knows them).
 */
export async function readManifestSources(
  sources: ReadonlyArray<string | KubeObject>,
): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const [i, source] of sources.entries()) {
    if (typeof source !== 'string') {
      const where = `objects[${i}]`;
      for (const object of flattenObject(structuredClone(source), where)) {
        origins.set(object, where);
        out.push(object);
      }
      continue;
    }
    for (const file of await manifestFiles(source)) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new ManifestError(file, fsMessage(err));
      }
      for (const object of await parseManifests(text, file)) {
        origins.set(object, file);
        out.push(object);
      }
    }
  }
  return out;
}

/**
 * The files `path` stands for: itself when it is a file, else every manifest
 * file under it in `filepath.Walk` order (each folder's entries sorted by
 * name, a subfolder walked where its name sorts), as kubectl reads `-f DIR -R`.
 */
async function manifestFiles(path: string): Promise<string[]> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(path)).isDirectory();
  } catch (err) {
    throw new ManifestError(path, fsMessage(err));
  }
  if (!isDirectory) return [path];
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      throw new ManifestError(dir, fsMessage(err));
    }
    // Go's filepath.Walk sorts by name (bytes); JS compares UTF-16 units, the same for ASCII names.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      // Walk uses Lstat: a symbolic link is never descended, only read as a file.
      if (entry.isDirectory()) await walk(full);
      else if (MANIFEST_EXTENSIONS.has(extname(entry.name))) files.push(full);
    }
  };
  await walk(path);
  return files;
}

function fsMessage(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EACCES') return 'permission denied';
  return (err as Error).message;
}

/** An object given as such: checked as a manifest is, a `List` flattened into its items. */
function flattenObject(value: unknown, where: string): KubeObject[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ManifestError(where, 'expected an object');
  }
  const object = value as KubeObject & { items?: unknown };
  if (typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items)) {
    return object.items.flatMap((item) => flattenObject(item, where));
  }
  const missing: string[] = [];
  if (typeof object.apiVersion !== 'string' || object.apiVersion === '') missing.push('apiVersion');
  if (typeof object.kind !== 'string' || object.kind === '') missing.push('kind');
  if (!object.metadata?.name && !object.metadata?.generateName) missing.push('metadata.name');
  if (missing.length > 0) {
    throw new ManifestError(
      where,
      `${object.kind ? `${object.kind} ` : ''}object has no ${missing.join(', ')}`,
    );
  }
  return [object];
}

/** Options of {@link installCustomResourceDefinitions}. */
export interface InstallCrdOptions {
  /** How long to wait for every definition to be Established and served (default 30 s). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The clock the timeout runs on (default the system clock). */
  clock?: Clock;
}

/**
 * Creates each CustomResourceDefinition, then waits, on a watch of the
 * definitions, until every one is Established and discovery serves its
 * kind at each served version (what `kubectl wait --for
 * condition=Established` and a fresh discovery read give). Fails at once
 * for an object that is not a definition, for a definition the server
 * refuses (its message, with the file), and for one whose names are not
 * accepted (NamesAccepted False: the condition's message).
 */
export async function installCustomResourceDefinitions(
  client: KubeClient,
  crds: KubeObject[],
  opts: InstallCrdOptions = {},
): Promise<void> {
  const definitions = crds.map((object) => {
    const definition = crdDefinition(object);
    if (!definition) {
      const name = object.metadata?.name ?? '';
      throw new SeedObjectError(
        `${(object.kind ?? 'object').toLowerCase()}/${name}`,
        manifestSourceOf(object),
        object.kind === 'CustomResourceDefinition'
          ? 'a CustomResourceDefinition needs metadata.name, spec.group and spec.names.kind'
          : `is a ${object.kind ?? 'object without kind'}, not a CustomResourceDefinition (seed objects go with the objects, not the CRDs)`,
      );
    }
    return { object, ...definition };
  });
  if (definitions.length === 0) return;
  const api = client.resource('customresourcedefinitions');
  for (const d of definitions) {
    try {
      await api.create(d.object, { signal: opts.signal });
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      throw new SeedObjectError(
        `customresourcedefinition/${d.name}`,
        manifestSourceOf(d.object),
        err.message,
        err,
      );
    }
  }
  await waitForEstablished(
    client,
    definitions.map((d) => d.name),
    opts,
  );
  // watchmark serves a definition's kinds before it turns Established (server/controllers/crd-controller.ts
  // `sync`), so one fresh discovery read finds them; the mapper reads afresh once on a miss.
  for (const d of definitions) {
    for (const version of servedVersions(d.object)) {
      try {
        await client.mapper.kindFor(`${d.group}/${version}`, d.kind, opts.signal);
      } catch (err) {
        if (!(err instanceof NoKindMatchError)) throw err;
        throw new SeedObjectError(
          `customresourcedefinition/${d.name}`,
          manifestSourceOf(d.object),
          `Established, but discovery does not serve it: ${err.message}`,
          err,
        );
      }
    }
  }
}

function servedVersions(crd: KubeObject): string[] {
  const versions = (crd as { spec?: { versions?: Array<{ name?: string; served?: boolean }> } }).spec
    ?.versions;
  return (versions ?? []).filter((v) => v.served !== false && v.name).map((v) => v.name as string);
}

type Condition = { type: string; status: string; reason?: string; message?: string };

const conditionsOf = (crd: KubeObject): Condition[] =>
  (crd as { status?: { conditions?: Condition[] } }).status?.conditions ?? [];

/**
 * Watches the definitions (list, then watch, resumed across drops) until
 * every one of `names` is Established; rejects when one's names are refused,
 * it is deleted, or `timeoutMs` passes (saying what was last seen).
 */
async function waitForEstablished(
  client: KubeClient,
  names: string[],
  opts: InstallCrdOptions,
): Promise<void> {
  const pending = new Map(names.map((n) => [n, 'not seen yet']));
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CRD_WAIT_MS;
  const stop = new AbortController();
  let lastError: unknown;
  const watcher = new Watcher<KubeObject>(client.resource('customresourcedefinitions').listWatch(), {
    signal: stop.signal,
    onError: (err) => (lastError = err),
  });
  let failure: Error | undefined;
  const judge = (crd: KubeObject, deleted: boolean) => {
    const name = crd.metadata?.name ?? '';
    if (!pending.has(name) || failure) return;
    const conditions = conditionsOf(crd);
    const refused = conditions.find((c) => c.type === 'NamesAccepted' && c.status === 'False');
    if (deleted) failure = new Error(`customresourcedefinition "${name}" was deleted while waiting for it`);
    else if (refused) {
      failure = new Error(
        `customresourcedefinition "${name}" names not accepted: ${refused.message || refused.reason || ''}`,
      );
    } else if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) pending.delete(name);
    else pending.set(name, describeConditions(conditions));
    if (failure || pending.size === 0) stop.abort();
  };
  const clock = opts.clock ?? systemClock;
  const timer = clock.setTimeout(() => stop.abort(), timeoutMs);
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await watcher.consume((batch) => {
      for (const e of batch) {
        if (e.type === 'initApply' || e.type === 'apply') judge(e.object, false);
        else if (e.type === 'delete') judge(e.object, true);
      }
    });
  } finally {
    timer.cancel();
    opts.signal?.removeEventListener('abort', onAbort);
    watcher.stop();
  }
  if (failure) throw failure;
  if (pending.size === 0) return;
  if (opts.signal?.aborted) throw opts.signal.reason;
  const waiting = [...pending].map(([name, seen]) => `"${name}" (${seen})`).join(', ');
  const error = lastError ? `; last watch error: ${(lastError as Error).message}` : '';
  throw new Error(
    `timed out after ${timeoutMs / 1000}s waiting for customresourcedefinitions to be Established: ${waiting}${error}`,
  );
}

function describeConditions(conditions: Condition[]): string {
  if (conditions.length === 0) return 'no conditions yet';
  return conditions.map((c) => `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}`).join(', ');
}

/** Options of {@link createObjects}. */
export interface CreateObjectsOptions {
  /** The namespace of namespaced objects that name none (default: the client's). */
  namespace?: string;
  /** The field manager of the creates (default: the server's, from the user agent). */
  fieldManager?: string;
  signal?: AbortSignal;
}

const isNamespace = (o: KubeObject) => o.kind === 'Namespace' && o.apiVersion === 'v1';

/**
 * Creates seed objects in order, Namespaces first, each mapped to its type
 * through the client's RESTMapper (custom kinds too, once their
 * definitions are served). A Namespace that exists already (`default`, or
 * one two files declare) is kept as it is; any other refusal throws a
 * {@link SeedObjectError} naming the object and its file. Resolves to the
 * objects as the server stored them, in creation order.
 */
export async function createObjects(
  client: KubeClient,
  objects: KubeObject[],
  opts: CreateObjectsOptions = {},
): Promise<KubeObject[]> {
  const ordered = [...objects.filter(isNamespace), ...objects.filter((o) => !isNamespace(o))];
  const created: KubeObject[] = [];
  for (const object of ordered) {
    const source = manifestSourceOf(object);
    const name = object.metadata?.name ?? object.metadata?.generateName ?? '';
    const fallbackRef = [object.kind?.toLowerCase(), object.metadata?.namespace, name]
      .filter(Boolean)
      .join('/');
    let target: Awaited<ReturnType<typeof applyTarget>>;
    try {
      target = await applyTarget(client, object, { namespace: opts.namespace, signal: opts.signal });
    } catch (err) {
      throw new SeedObjectError(fallbackRef, source, (err as Error).message, err);
    }
    const ref = [target.type.kind.toLowerCase(), target.namespace, name].filter(Boolean).join('/');
    const api = client.resource(target.type, target.namespace);
    try {
      created.push(await api.create(target.object, { fieldManager: opts.fieldManager, signal: opts.signal }));
    } catch (err) {
      if (!(err instanceof StatusError)) throw err;
      if (isAlreadyExists(err) && isNamespace(object)) continue;
      throw new SeedObjectError(ref, source, err.message, err);
    }
  }
  return created;
}
