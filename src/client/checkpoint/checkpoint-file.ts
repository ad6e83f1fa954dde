/**
 * The checkpoint file: an informer's objects and the resourceVersion they are
 * current at, written atomically and verified whole on read.
 *
 * Layout (JSON lines, UTF-8):
 *
 *   {"format":"watchmark-checkpoint","version":1,"savedAt":...,"identity":{...},"resourceVersion":"812","objects":N}
 *   <object 1>
 *   ...
 *   <object N>
 *   {"end":"watchmark-checkpoint","objects":N,"sha256":"<hex of every byte above>"}
 *
 * Atomic: written to `<path>.tmp-<pid>-<n>`, fsynced, renamed over `path`,
 * then the directory fsynced, so after `kill -9` or a power cut at any moment
 * `path` holds the previous checkpoint or the new one, whole. The hash catches
 * what rename cannot: a file cut or altered by anything else.
 */
import { createHash } from 'node:crypto';
import { open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { KubeObject } from '../../protocol/events.js';
import { decodeListLazily, undecodedText } from '../watch/lazy-decode.js';

/** The `format` of a checkpoint file's header. */
export const CHECKPOINT_FORMAT = 'watchmark-checkpoint';
/** The layout version written; a file of another version is ignored. */
export const CHECKPOINT_VERSION = 1;

/**
 * What a checkpoint belongs to. A resourceVersion means something only
 * against the storage that issued it, so a checkpoint is used only when every
 * field matches the running process's.
 */
export interface CheckpointIdentity {
  /** The API server URLs (sorted; several for an HA kubeconfig). */
  servers: string[];
  /** The cluster's identity: the `kube-system` namespace's metadata.uid. */
  clusterUid: string;
  /** `group/version/plural` (`/v1/pods` for core). */
  resource: string;
  /** The namespace watched; "" for all namespaces or a cluster-scoped resource. */
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
}

/** The first line of a checkpoint file. */
export interface CheckpointHeader {
  format: typeof CHECKPOINT_FORMAT;
  version: number;
  /** When it was written (ms since the epoch, the writer's clock). */
  savedAt: number;
  identity: CheckpointIdentity;
  resourceVersion: string;
  /** How many object lines follow. */
  objects: number;
}

/** A checkpoint read back: its header and objects. */
export interface LoadedCheckpoint {
  header: CheckpointHeader;
  objects: KubeObject[];
}

/** Why a checkpoint file could not be used; `missing` for no file at all (the first start). */
export class CheckpointFileError extends Error {
  readonly missing: boolean;
  constructor(message: string, missing = false, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CheckpointFileError';
    this.missing = missing;
  }
}

/** What one write cost. */
export interface WriteResult {
  bytes: number;
  ms: number;
}

/** Bytes serialized before each write to the file (and each chance for other work to run). */
const CHUNK_BYTES = 1 << 20;
let tmpSeq = 0;

/** An object as one JSON line: a lazy object's own text when undecoded (and single-line), else JSON.stringify. */
function objectLine(object: KubeObject): string {
  const text = undecodedText(object);
  if (text !== undefined && !text.includes('\n')) return text;
  return JSON.stringify(object);
}

/**
 * Writes a checkpoint atomically (see the file comment). Serialization goes
 * in chunks of about 1 MiB, each written before the next is made, so a large
 * cache never holds the event loop for more than one chunk's JSON.stringify.
 */
export async function writeCheckpointFile(
  path: string,
  header: Omit<CheckpointHeader, 'format' | 'version' | 'objects'>,
  objects: Iterable<KubeObject> & { length: number },
): Promise<WriteResult> {
  const started = performance.now();
  const tmp = `${path}.tmp-${process.pid}-${++tmpSeq}`;
  const fh = await open(tmp, 'w', 0o600);
  let bytes = 0;
  try {
    const hash = createHash('sha256');
    let parts: string[] = [];
    let size = 0;
    const flush = async () => {
      const buf = Buffer.from(parts.join(''), 'utf8');
      parts = [];
      size = 0;
      hash.update(buf);
      await fh.write(buf);
      bytes += buf.length;
    };
    const full: CheckpointHeader = {
      format: CHECKPOINT_FORMAT,
      version: CHECKPOINT_VERSION,
      ...header,
      objects: objects.length,
    };
    parts.push(`${JSON.stringify(full)}\n`);
    for (const object of objects) {
      const line = objectLine(object);
      parts.push(line, '\n');
      size += line.length + 1;
      if (size >= CHUNK_BYTES) await flush();
    }
    await flush();
    const trailer = { end: CHECKPOINT_FORMAT, objects: objects.length, sha256: hash.digest('hex') };
    const last = Buffer.from(`${JSON.stringify(trailer)}\n`);
    await fh.write(last);
    bytes += last.length;
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
  await fh.close();
  await rename(tmp, path);
  await syncDirectory(dirname(path));
  return { bytes, ms: performance.now() - started };
}

/** fsyncs a directory, so a rename in it survives a power cut. */
async function syncDirectory(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Reads and verifies a checkpoint: the trailer's hash over every byte above
 * it, the format and version, the object count. Throws a
 * {@link CheckpointFileError} saying what is wrong; never returns a partial
 * checkpoint. `lazyDecode` makes the objects lazy (see lazy-decode.ts).
 */
export async function readCheckpointFile(path: string, lazyDecode = false): Promise<LoadedCheckpoint> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CheckpointFileError(`no checkpoint at ${path}`, true);
    throw new CheckpointFileError(`cannot read ${path}: ${(err as Error).message}`, false, { cause: err });
  }
  if (buf.length === 0) throw new CheckpointFileError('the file is empty');
  if (buf[buf.length - 1] !== 0x0a) throw new CheckpointFileError('the file is truncated (no final line)');
  const trailerStart = buf.lastIndexOf(0x0a, buf.length - 2) + 1;
  if (trailerStart === 0) throw new CheckpointFileError('the file is truncated (one line only)');
  const trailer = parseLine(buf.subarray(trailerStart, buf.length - 1), 'trailer') as {
    end?: unknown;
    objects?: unknown;
    sha256?: unknown;
  };
  if (trailer.end !== CHECKPOINT_FORMAT) throw new CheckpointFileError('the file is truncated (no trailer)');
  const body = buf.subarray(0, trailerStart);
  const sha = createHash('sha256').update(body).digest('hex');
  if (sha !== trailer.sha256) throw new CheckpointFileError('the file is corrupt (its hash does not match)');
  const headerEnd = body.indexOf(0x0a);
  const header = parseLine(body.subarray(0, headerEnd), 'header') as CheckpointHeader;
  if (header.format !== CHECKPOINT_FORMAT) throw new CheckpointFileError('not a watchmark checkpoint');
  if (header.version !== CHECKPOINT_VERSION)
    throw new CheckpointFileError(
      `format version ${JSON.stringify(header.version)}, this watchmark reads ${CHECKPOINT_VERSION}`,
    );
  const lines = body.subarray(headerEnd + 1, body.length);
  const objects = lazyDecode ? lazyObjects(lines) : eagerObjects(lines);
  if (objects.length !== header.objects || objects.length !== trailer.objects)
    throw new CheckpointFileError(
      `the header counts ${header.objects} objects, the file holds ${objects.length}`,
    );
  return { header, objects };
}

function parseLine(bytes: Buffer, what: string): unknown {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (value === null || typeof value !== 'object') throw new Error('not an object');
    return value;
  } catch (err) {
    throw new CheckpointFileError(`the ${what} line is not JSON: ${(err as Error).message}`, false, {
      cause: err,
    });
  }
}

function eagerObjects(lines: Buffer): KubeObject[] {
  if (lines.length === 0) return [];
  const text = lines.toString('utf8');
  const out: KubeObject[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
    out.push(JSON.parse(text.slice(from, nl)) as KubeObject);
    from = nl + 1;
  }
  return out;
}

/** The object lines as one list answer, decoded lazily: one copy, no parse. */
function lazyObjects(lines: Buffer): KubeObject[] {
  if (lines.length === 0) return [];
  const list = Buffer.allocUnsafe(lines.length + 11);
  list.write('{"items":[', 0);
  lines.copy(list, 10);
  // Object lines hold no raw newline (JSON escapes it): each newline separates two items.
  for (let i = 10; i < list.length - 1; i++) if (list[i] === 0x0a) list[i] = 0x2c;
  list.write(']}', list.length - 2);
  return decodeListLazily(list).items as KubeObject[];
}

/**
 * Removes temporary files a killed writer left beside `path` (a write cut by
 * `kill -9` leaves its `.tmp-<pid>-<n>`); those of a live process stay.
 */
export async function removeStaleTemporaries(path: string): Promise<number> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (pid === process.pid || (Number.isInteger(pid) && pid > 0 && alive(pid))) continue;
    await rm(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
