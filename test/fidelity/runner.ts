/**
 * Runs one case against one server and records what it answered, step by
 * step. Nothing is compared here: the same case runs against the reference
 * and against watchmark, and compare.ts judges the two records.
 */

import { execFile } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { type Endpoint, openWatch, send, target } from './http.js';
import { decodeProtobufAnswer, isProtobuf } from './protobuf-decode.js';
import type { FidelityCase, Focus, Observation, RequestSpec, Step, WaitSpec, WatchSpec } from './types.js';

/** A server as the runner drives it. */
export interface Server extends Endpoint {
  name: 'reference' | 'watchmark';
  /** A kubeconfig for kubectl steps. */
  kubeconfigPath: string;
  /** The kubectl kubectl steps run (the reference build's 1.37, for both servers). */
  kubectl: string;
  /** Placeholders every case may use (the corpus webhook's `$webhookURL` and `$webhookCA`). */
  vars?: Record<string, string>;
}

/** Per-case values: placeholders and what steps saved. */
interface Scope {
  vars: Record<string, string>;
}

const WATCH_READ_MS = 8_000;

/** The namespace a case runs in: the same on both servers, so names need no normalising. */
export function caseNamespace(index: number): string {
  return `fc-${index.toString(36)}`;
}

/** Runs `c` on `server` and returns one observation per compared step (in step order). */
export async function runCase(server: Server, c: FidelityCase, index: number): Promise<Observation[]> {
  const ns = caseNamespace(index);
  const scope: Scope = { vars: { ...server.vars, ns, n: index.toString(36) } };
  if (c.namespace !== false) {
    const created = await send(
      server,
      'POST',
      '/api/v1/namespaces',
      { 'content-type': 'application/json' },
      JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }),
    );
    if (created.status !== 201)
      throw new Error(`${server.name}: namespace ${ns}: ${created.status} ${created.text}`);
  }
  const observations: Observation[] = [];
  await runSteps(server, c.steps, scope, observations, '');
  return observations;
}

async function runSteps(
  server: Server,
  steps: Step[],
  scope: Scope,
  out: Observation[],
  prefix: string,
): Promise<void> {
  for (const [i, step] of steps.entries()) {
    const label = `${prefix}${i}`;
    let observation: Observation;
    try {
      if ('request' in step) {
        observation = await runRequest(server, fill(step.request, scope), scope, step.save);
      } else if ('watch' in step) {
        observation = await runWatch(server, fill(step.watch, scope), scope, out, label);
      } else if ('kubectl' in step) {
        observation = await runKubectl(
          server,
          fill(step.kubectl, scope),
          step.stdin && fill(step.stdin, scope),
        );
      } else {
        await waitFor(server, fill(step.waitFor, scope));
        continue;
      }
    } catch (err) {
      observation = { step: label, kind: 'error', error: (err as Error).message };
    }
    if (step.compare === false && observation.kind !== 'error') continue;
    if ('pick' in step || 'ignore' in step) observation = focus(observation, step as Focus);
    out.push({ ...observation, step: label });
  }
}

async function runRequest(
  server: Server,
  spec: RequestSpec,
  scope: Scope,
  save: Record<string, string> | undefined,
): Promise<Observation> {
  const method = spec.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json', ...lower(spec.headers) };
  let body: string | undefined;
  if (spec.bodyText !== undefined) body = spec.bodyText;
  else if (spec.body !== undefined) body = JSON.stringify(spec.body);
  if (body !== undefined && headers['content-type'] === undefined)
    headers['content-type'] = 'application/json';
  const answer = await send(server, method, target(spec.path, spec.query), headers, body);
  const parsed = parseBody(answer.text, answer.headers['content-type'], answer.bytes);
  for (const [name, path] of Object.entries(save ?? {})) {
    const value = dig(parsed, path);
    scope.vars[name] = value === undefined ? '' : String(value);
  }
  return { step: '', kind: 'request', status: answer.status, headers: answer.headers, body: parsed };
}

async function runWatch(
  server: Server,
  spec: WatchSpec,
  scope: Scope,
  out: Observation[],
  label: string,
): Promise<Observation> {
  const query = { watch: 'true', ...spec.query };
  const watch = await openWatch(server, target(spec.path, query), {
    accept: 'application/json',
    ...lower(spec.headers),
  });
  try {
    if (watch.status !== 200) {
      return {
        step: '',
        kind: 'watch',
        status: watch.status,
        headers: watch.headers,
        body: parseBody(watch.text, watch.headers['content-type'], watch.bytes),
      };
    }
    if (spec.during) await runSteps(server, spec.during, scope, out, `${label}.`);
    const events: Array<{ type: string; object: unknown }> = [];
    const keepPeriodic = spec.dropPeriodicBookmarks === false;
    let ended = 'timeout';
    for (;;) {
      const next = await watch.next(WATCH_READ_MS);
      if (next === 'end' || next === 'timeout') {
        ended = next;
        break;
      }
      const event = next.line as { type: string; object: unknown };
      const initialEnd = isInitialEventsEnd(event);
      if (event.type === 'BOOKMARK' && !initialEnd && !keepPeriodic) continue;
      events.push(event);
      if (spec.until.initialEventsEnd && initialEnd) {
        ended = 'initialEventsEnd';
        break;
      }
      if (spec.until.events !== undefined && events.length >= spec.until.events) {
        ended = 'count';
        break;
      }
    }
    return { step: '', kind: 'watch', status: watch.status, headers: watch.headers, events, ended };
  } finally {
    watch.close();
  }
}

function isInitialEventsEnd(event: { type: string; object: unknown }): boolean {
  const annotations = dig(event.object, 'metadata.annotations') as Record<string, string> | undefined;
  return event.type === 'BOOKMARK' && annotations?.['k8s.io/initial-events-end'] === 'true';
}

function runKubectl(server: Server, args: string[], stdin: string | undefined): Promise<Observation> {
  return new Promise((resolve) => {
    const child = execFile(
      server.kubectl,
      [`--kubeconfig=${server.kubeconfigPath}`, ...args],
      { timeout: 30_000, env: { ...process.env, KUBECTL_KUBERC: 'false', NO_COLOR: '1' } },
      (err, stdout, stderr) => {
        const exitCode = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ step: '', kind: 'kubectl', exitCode, stdout, stderr });
      },
    );
    child.stdin?.end(stdin ?? '');
  });
}

async function waitFor(server: Server, spec: WaitSpec): Promise<void> {
  // `absent`: until the object is gone (404); `equals`: until the field holds the value; neither:
  // until the field is unset; `request`: until that request is answered with `status`.
  const deadline = Date.now() + (spec.timeoutMs ?? 60_000);
  let last: unknown;
  for (;;) {
    if (spec.request) {
      const answer = await runRequest(server, spec.request, { vars: {} }, undefined);
      if (answer.status === spec.status) return;
      if (Date.now() > deadline) {
        throw new Error(
          `waitFor ${spec.request.method ?? 'GET'} ${spec.request.path}: last ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const answer = await send(server, 'GET', spec.path!, { accept: 'application/json' }, undefined);
    const body = parseBody(answer.text, answer.headers['content-type'], answer.bytes);
    last = answer.status === 404 ? '(404)' : spec.field === undefined ? body : select(body, spec.field);
    const done = spec.absent
      ? answer.status === 404
      : 'equals' in spec
        ? JSON.stringify(last) === JSON.stringify(spec.equals)
        : answer.status === 200 && last === undefined;
    if (done) return;
    if (Date.now() > deadline) {
      throw new Error(
        `waitFor ${spec.path} ${spec.field ?? ''}: last ${JSON.stringify(last)?.slice(0, 300)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The observation with only the picked parts of its body, and without the ignored parts. */
function focus(observation: Observation, f: Focus): Observation {
  const out: Observation = { ...observation };
  if (f.pick && out.body !== undefined) {
    const picked: Record<string, unknown> = {};
    for (const selector of f.pick) picked[selector] = select(out.body, selector);
    out.body = picked;
  }
  for (const part of f.ignore ?? []) delete out[part];
  return out;
}

/** `a.b[name=x].c`: a dotted path whose segments may pick the list element with a field equal to a value. */
export function select(value: unknown, selector: string): unknown {
  let cur = value;
  for (const segment of selector.match(/[^.[\]]+(\[[^\]]*\])?/g) ?? []) {
    const m = /^([^[]+)(?:\[([^=\]]+)=([^\]]*)\])?$/.exec(segment);
    if (!m || cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[m[1]];
    if (m[2] !== undefined) {
      if (!Array.isArray(cur)) return undefined;
      cur = cur.find((item) => String(dig(item, m[2])) === m[3]);
    }
  }
  return cur;
}

/** JSON when the answer says so (or looks like it), else the text as it came. */
export function parseBody(text: string, contentType: string | undefined, bytes?: Buffer): unknown {
  if (text === '') return '';
  // Protobuf answers are compared as the JSON they stand for (protobuf-decode.ts).
  if (bytes && isProtobuf(contentType)) return decodeProtobufAnswer(bytes);
  // YAML answers are compared as the values they hold (the two servers' YAML writers differ in layout only).
  if (contentType?.includes('yaml')) {
    try {
      return parseYaml(text);
    } catch {
      return text;
    }
  }
  if (contentType?.includes('json') || text.startsWith('{')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The value at a dotted path (`metadata.resourceVersion`, `items.0.metadata.name`). */
export function dig(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** `value` with every `{name}` in its strings replaced from the scope (unknown names are left as they are). */
export function fill<T>(value: T, scope: Scope): T {
  if (typeof value === 'string') {
    return value.replace(/\$([a-zA-Z]\w*)/g, (whole, name: string) =>
      name in scope.vars ? scope.vars[name] : whole,
    ) as T;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, scope)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // `during` steps are filled when they run: a value they use may be saved after the watch opens.
      out[fill(k, scope)] = k === 'during' ? v : fill(v, scope);
    }
    return out as T;
  }
  return value;
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}
