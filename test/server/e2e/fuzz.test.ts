/**
 * Seeded fuzzing of request parsing against one running server: random
 * methods, paths from the real path grammar with garbage mixed in, random
 * query parameters, bodies and content types, sent concurrently. Every answer
 * must be well formed (a Status with the matching code for every error, never
 * a 500), the server must keep answering, and the final lists must hold
 * exactly what the successful writes said they did.
 *
 * Reproduce a failure with `WATCHMARK_FUZZ_SEED=<seed> npx vitest run test/server/e2e/fuzz.test.ts`.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../../src/protocol/events.js';
import type { RunningServer } from '../../../src/server/index.js';
import { REGISTRY } from '../../../src/server/kinds/served/registry.js';
import type { ResourceKind } from '../../../src/server/kinds/types.js';
import { mulberry32 } from '../../helpers/random.js';
import { pod, startTestServer } from '../../helpers/server.js';

const SEED = Number(process.env.WATCHMARK_FUZZ_SEED ?? 0x5eed_2024);
const REQUESTS = 1500;
const CONCURRENCY = 8;

const rand = mulberry32(SEED);
const chance = (p: number) => rand() < p;
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)];

const NAMESPACES = ['fz-a', 'fz-b', 'fz-c'];
const NAMES = ['a', 'b', 'c', 'web', 'x-1'];
const JUNK_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%2F',
  '%00',
  '..',
  '.',
  'a%2Fb',
  '%C3%A9',
  '~',
  ':',
  '@',
  '*',
];

interface Target {
  kind?: ResourceKind;
  namespace?: string;
  name?: string;
  subresource?: string;
}

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The well-formed target this request was built from, undefined once the path was mangled. */
  target?: Target;
  dryRun: boolean;
}

interface FuzzAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  streamed: boolean;
}

function kindPrefix(kind: ResourceKind): string {
  return kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
}

function resourcePath(t: Target, watchPrefix: boolean): string {
  const kind = t.kind!;
  const parts = [kindPrefix(kind)];
  if (watchPrefix) parts.push('watch');
  if (kind.namespaced && t.namespace !== undefined) parts.push('namespaces', t.namespace);
  parts.push(kind.plural);
  if (t.name !== undefined) parts.push(t.name);
  if (t.subresource !== undefined) parts.push(t.subresource);
  return parts.join('/');
}

const NON_RESOURCE = [
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/api',
  '/apis',
  '/api/v1',
  '/apis/apps',
  '/apis/apps/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/api/v1',
  '/openapi/v3/apis/apps/v1',
  '/metrics',
  '/debug/watchmark/stats',
  '/debug/watchmark/nope',
  '/',
  '/api/v1/namespaces/fz-a/status',
  '/api/v1/namespaces/fz-a/finalize',
];

/** Mangles a well-formed path: junk segments, `..`, bad %-escapes, doubled slashes, huge segments. */
function mangle(path: string): string {
  const segments = path.split('/');
  const at = 1 + int(Math.max(1, segments.length - 1));
  switch (int(8)) {
    case 0:
      segments.splice(at, 0, pick(JUNK_SEGMENTS));
      break;
    case 1:
      segments[at] = pick(JUNK_SEGMENTS);
      break;
    case 2: {
      // A valid escape of one character: the same path, spelled differently.
      const s = segments[at] ?? '';
      if (s.length > 0) {
        const i = int(s.length);
        segments[at] = `${s.slice(0, i)}%${s.charCodeAt(i).toString(16).padStart(2, '0')}${s.slice(i + 1)}`;
      }
      break;
    }
    case 3:
      return path.replace('/', '//');
    case 4:
      return `${path}/`;
    case 5:
      segments[at] = 'x'.repeat(1 + int(5000));
      break;
    case 6:
      segments[at] = (segments[at] ?? '').toUpperCase();
      break;
    default:
      segments.splice(at, 1);
  }
  return segments.join('/') || '/';
}

const QUERY_VALUES: Record<string, () => string> = {
  resourceVersion: () =>
    pick(['', '0', '1', '2', String(int(400)), '99999999999', 'abc', '-1', '1e3', '%zz']),
  resourceVersionMatch: () => pick(['Exact', 'NotOlderThan', 'exact', '', 'Sideways']),
  limit: () => pick(['1', '2', '5', '0', '-3', 'x', '1e3', '99999999999999999999', '']),
  continue: () =>
    pick([
      ...continueTokens.slice(-3),
      'garbage',
      'e30',
      '%%',
      Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}').toString('base64url'),
    ]),
  labelSelector: () =>
    pick([
      'app=a',
      'app!=a',
      'app in (a,b)',
      '!app',
      'a,b',
      'app=',
      '=',
      'a in (',
      '%zz',
      'x'.repeat(300),
      'app notin (a)',
    ]),
  fieldSelector: () =>
    pick([
      'metadata.name=a',
      'metadata.namespace=fz-a',
      'spec.nodeName=',
      'status.phase!=Running',
      'bogus=1',
      '=',
      'metadata.name',
      'a,,b',
    ]),
  watch: () => pick(['1', 'true', 'false', '0', 'yes', '']),
  timeoutSeconds: () => '1',
  allowWatchBookmarks: () => pick(['true', 'false', 'maybe']),
  sendInitialEvents: () => pick(['true', 'false', 'x']),
  dryRun: () => pick(['All', 'None', '']),
  fieldValidation: () => pick(['Strict', 'Warn', 'Ignore', 'Loud']),
  fieldManager: () => pick(['fuzz', '', 'x'.repeat(200)]),
  propagationPolicy: () => pick(['Foreground', 'Background', 'Orphan', 'Never']),
  includeObject: () => pick(['Object', 'Metadata', 'None', 'All']),
  pretty: () => pick(['true', '1']),
};

const continueTokens: string[] = [];

function query(target: Target | undefined): string {
  const parts: string[] = [];
  const n = int(5);
  const keys = Object.keys(QUERY_VALUES);
  for (let i = 0; i < n; i++) {
    const key = pick(keys);
    const value = QUERY_VALUES[key]();
    parts.push(chance(0.9) ? `${key}=${encodeURIComponent(value)}` : `${key}=${value.replace(/[ #]/g, '+')}`);
  }
  if (target && chance(0.05)) parts.push('&&=', '%', '=x');
  // A watch of any shape must end on its own: the stream is also cut client-side.
  if (parts.some((p) => p.startsWith('watch=')) || chance(0.05)) parts.push('timeoutSeconds=1');
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

function validObject(kind: ResourceKind, name: string | undefined, namespace?: string): KubeObject {
  const meta: Record<string, unknown> = name === undefined ? { generateName: 'gen-' } : { name };
  if (chance(0.3)) meta.labels = { app: pick(['a', 'b']) };
  if (chance(0.1)) meta.finalizers = ['fuzz.example.com/hold'];
  if (chance(0.05) && namespace) meta.namespace = namespace;
  const base = {
    apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version,
    kind: kind.kind,
    metadata: meta,
  };
  const template = (app: string) => ({
    metadata: { labels: { app } },
    spec: { containers: [{ name: 'c', image: pick(['nginx:1.27', 'busybox']) }] },
  });
  switch (kind.kind) {
    case 'Pod':
      return { ...base, spec: pod('x').spec };
    case 'Deployment':
    case 'ReplicaSet':
    case 'DaemonSet':
      return {
        ...base,
        spec: { replicas: int(4), selector: { matchLabels: { app: 'f' } }, template: template('f') },
      };
    case 'StatefulSet':
      return {
        ...base,
        spec: {
          serviceName: 's',
          replicas: 1,
          selector: { matchLabels: { app: 'f' } },
          template: template('f'),
        },
      };
    case 'ConfigMap':
      return { ...base, data: { k: 'v'.repeat(int(50)) } };
    case 'Secret':
      return { ...base, stringData: { password: 'p' } };
    case 'Service':
      return { ...base, spec: { selector: { app: 'f' }, ports: [{ port: 80 + int(10) }] } };
    case 'Lease':
      return { ...base, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } };
    case 'Namespace':
      return { ...base, metadata: { ...meta, labels: { fuzz: 'doomed' } } };
    case 'Event':
      return {
        ...base,
        involvedObject: { kind: 'Pod', name: 'a', namespace },
        reason: 'Fuzzed',
        message: 'by the fuzz test',
        type: 'Normal',
      };
    default:
      return { ...base, spec: {} };
  }
}

function deepNesting(depth: number): string {
  const open = chance(0.5) ? '{"a":' : '[';
  const close = open === '[' ? ']' : '}';
  return `{"metadata":{"name":"deep"},"spec":${open.repeat(depth)}1${close.repeat(depth)}}`;
}

/** A body and its content type: valid objects, patches, and every kind of junk. */
function body(kind: ResourceKind | undefined, method: string, target: Target | undefined): [Buffer, string] {
  const json = (v: unknown) => Buffer.from(JSON.stringify(v));
  // Creates mostly reuse a few names (so 409s happen), sometimes generateName.
  const name = target?.name ?? (chance(0.7) ? pick(NAMES) : undefined);
  const obj = () => validObject(kind ?? pick(REGISTRY), name, target?.namespace);
  const contentType = pick([
    'application/json',
    'application/json',
    'application/merge-patch+json',
    'application/json-patch+json',
    'application/strategic-merge-patch+json',
    'application/apply-patch+yaml',
    'application/yaml',
    'application/vnd.kubernetes.protobuf',
    'text/plain',
    'application/xml',
    'application/json; charset=utf-8',
    '',
    'nonsense',
  ]);
  switch (int(14)) {
    case 0:
    case 1:
    case 2: {
      // The sensible case: a valid object with the content type its method wants.
      const ct =
        method === 'PATCH'
          ? pick([
              'application/merge-patch+json',
              'application/strategic-merge-patch+json',
              'application/apply-patch+yaml',
            ])
          : 'application/json';
      return [json(obj()), ct];
    }
    case 3:
      return [
        json(
          pick([
            { metadata: { labels: { app: pick(['a', 'b', null]) } } },
            { metadata: { finalizers: null } },
            { metadata: { finalizers: ['fuzz.example.com/hold'] } },
            { spec: { replicas: int(5) } },
            { status: { phase: 'Running', replicas: int(3) } },
            { metadata: { resourceVersion: String(int(300)) } },
            { spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } } } },
          ]),
        ),
        pick(['application/merge-patch+json', 'application/strategic-merge-patch+json']),
      ];
    case 4:
      return [
        json(
          pick([
            [{ op: 'replace', path: '/spec/replicas', value: int(4) }],
            [{ op: 'remove', path: '/metadata/finalizers' }],
            [{ op: 'add', path: '/metadata/labels', value: { app: 'a' } }],
            [{ op: 'test', path: '/metadata/name', value: 'a' }],
            [{ op: 'move', from: '/spec', path: '/spec/x' }],
            [{ op: 'copy', from: '/metadata', path: '/status' }],
            [{ op: 'nope', path: '/' }],
            [{ op: 'add', path: '/metadata/labels/~2', value: 1 }],
            [{ op: 'replace', path: '', value: [] }],
            { op: 'add' },
          ]),
        ),
        'application/json-patch+json',
      ];
    case 5: {
      const text = JSON.stringify(obj());
      return [Buffer.from(text.slice(0, int(text.length))), contentType];
    }
    case 6:
      return [
        json(
          pick([
            { ...obj(), metadata: 5 },
            { ...obj(), metadata: { name: 123 } },
            { ...obj(), metadata: { name: 'a', labels: [1, 2] } },
            { ...obj(), metadata: { name: 'a', annotations: { k: 5 } } },
            { ...obj(), metadata: { name: 'a', finalizers: 'x' } },
            { ...obj(), metadata: { name: 'a', ownerReferences: [{}] } },
            { ...obj(), spec: 'x' },
            { ...obj(), spec: { containers: {} } },
            { ...obj(), spec: { replicas: '3', selector: 'app=a' } },
            { ...obj(), spec: { template: null } },
            { ...obj(), data: [1] },
            { ...obj(), kind: 7 },
            { ...obj(), apiVersion: 'v999' },
            { ...obj(), status: 'done' },
            { ...obj(), metadata: { name: 'a', generateName: 7, labels: null } },
            { ...obj(), metadata: { name: 'a', creationTimestamp: 'yesterday', deletionTimestamp: 5 } },
            null,
            7,
            'str',
            true,
          ]),
        ),
        contentType,
      ];
    case 7: {
      const size = chance(0.05) ? 3 * 1024 * 1024 + 100 : int(200_000);
      return [json({ ...obj(), metadata: { name: 'h'.repeat(size) } }), contentType];
    }
    case 8:
      // Around the server's nesting limit, where the stack would overflow, and far past it; also as YAML.
      if (chance(0.3)) {
        const d = pick([200, 300, 2000, 100_000]);
        return [
          Buffer.from(chance(0.5) ? `spec: ${'['.repeat(d)}${']'.repeat(d)}` : '- '.repeat(d) + '1'),
          pick(['application/yaml', 'application/apply-patch+yaml']),
        ];
      }
      return [Buffer.from(deepNesting(pick([100, 997, 1001, 1900, 2500, 9999, 200_000]))), contentType];
    case 9:
      return [json(pick([[], [obj()], [[[]]], [null]])), contentType];
    case 10:
      return [
        Buffer.from(
          pick([
            'a: [b\n',
            'key: value\n  bad: indent\n',
            '- 1\n- 2\n',
            '!!binary x',
            '&a [*a]',
            '{{{',
            'apiVersion: v1\nkind: Pod\nmetadata: {name: y}\nspec: {containers: [{name: c, image: i}]}\n',
            '',
            '---\n---\n',
            'a: *unknown\n',
          ]),
        ),
        pick(['application/yaml', 'application/apply-patch+yaml']),
      ];
    case 11: {
      const junk = Buffer.alloc(int(64));
      for (let i = 0; i < junk.length; i++) junk[i] = int(256);
      const magic = chance(0.8) ? Buffer.from([0x6b, 0x38, 0x73, 0x00]) : Buffer.alloc(0);
      return [Buffer.concat([magic, junk]), 'application/vnd.kubernetes.protobuf'];
    }
    case 12:
      return [Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]), contentType];
    default:
      return [
        json({
          kind: 'DeleteOptions',
          apiVersion: 'v1',
          propagationPolicy: pick(['Orphan', 'Foreground', 'Background', 'Sideways', 5]),
          preconditions: pick([{ uid: 'nope' }, { resourceVersion: '1' }, 'x', null, {}]),
          gracePeriodSeconds: pick([0, -1, 'x']),
        }),
        contentType,
      ];
  }
}

const SENSIBLE_KINDS = REGISTRY.filter((k) =>
  ['Pod', 'ConfigMap', 'Secret', 'Service', 'Deployment', 'Lease'].includes(k.kind),
);

/** A request a client could well send: valid target, valid object or patch, tame parameters. */
function sensibleRequest(): FuzzRequest {
  const method = pick(['POST', 'POST', 'PUT', 'PATCH', 'PATCH', 'DELETE', 'GET']);
  const kind = pick(SENSIBLE_KINDS);
  const target: Target = { kind, namespace: pick(NAMESPACES), name: pick(NAMES) };
  const obj = validObject(kind, target.name, target.namespace);
  const params: string[] = [];
  if (chance(0.1)) params.push('dryRun=All');
  if (method === 'DELETE' && chance(0.3)) params.push(`propagationPolicy=${pick(['Foreground', 'Orphan'])}`);
  let payload: unknown = obj;
  let contentType = 'application/json';
  if (method === 'PATCH') {
    contentType = pick([
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
    ]);
    if (contentType === 'application/apply-patch+yaml') params.push('fieldManager=fuzz');
    else
      payload = pick([
        { metadata: { labels: { app: pick(['a', 'b']) } } },
        { metadata: { finalizers: null } },
      ]);
  }
  const path = resourcePath(method === 'POST' ? { ...target, name: undefined } : target, false);
  const body =
    method === 'GET' || (method === 'DELETE' && chance(0.7))
      ? undefined
      : Buffer.from(JSON.stringify(payload));
  const headers: Record<string, string> = {};
  if (body) {
    headers['content-type'] = contentType;
    headers['content-length'] = String(body.length);
  }
  const q = params.length > 0 ? `?${params.join('&')}` : '';
  return { method, path: path + q, headers, body, target, dryRun: q.includes('dryRun') };
}

/** Path without its query, with valid %-escapes decoded and slashes collapsed: what the server routes on. */
function routed(path: string): string {
  const p = path.split('?')[0].replace(/%[0-9a-fA-F]{2}/g, (e) => {
    const c = String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return c === '/' ? e : c;
  });
  return p.replace(/\/+/g, '/').replace(/\/$/, '');
}

function buildRequest(): FuzzRequest {
  if (chance(0.3)) return sensibleRequest();
  const method = pick([
    'GET',
    'GET',
    'GET',
    'POST',
    'POST',
    'PUT',
    'PATCH',
    'PATCH',
    'DELETE',
    'HEAD',
    'OPTIONS',
  ]);
  let target: Target | undefined;
  let path: string;
  if (chance(0.12)) {
    path = pick(NON_RESOURCE);
  } else {
    const kind = pick(REGISTRY);
    target = {
      kind,
      namespace: kind.namespaced && chance(0.9) ? pick(NAMESPACES) : undefined,
      name: method === 'POST' ? undefined : chance(0.75) ? pick(NAMES) : undefined,
    };
    if (target.name !== undefined && chance(0.2))
      target.subresource = pick(['status', 'scale', 'finalize', 'log', 'bogus']);
    path = resourcePath(target, chance(0.05));
  }
  if (chance(0.25)) {
    path = mangle(path);
    target = undefined;
  }
  let q = query(target);
  if (method === 'DELETE' && routed(path).endsWith('/namespaces')) {
    // A collection delete of every namespace would end the run's usefulness: keep it to the fuzz's
    // own. First, because the server reads the first of repeated parameters.
    q = `?labelSelector=fuzz%3Ddoomed${q ? `&${q.slice(1)}` : ''}`;
  }
  const headers: Record<string, string> = {};
  let payload: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD' && (method !== 'DELETE' || chance(0.3))) {
    const [b, ct] = body(target?.kind, method, target);
    payload = b;
    if (ct) headers['content-type'] = ct;
    headers['content-length'] = String(b.length);
  }
  // Reads only: a write answered with a Table would hide the written object from the model.
  if (method === 'GET' && chance(0.2))
    headers.accept = pick([
      'application/json;as=Table;v=v1;g=meta.k8s.io',
      'application/yaml',
      '*/*',
      'text/html',
    ]);
  const dryRun = /dryRun=/.test(q) || (payload?.includes('dryRun') ?? false);
  return { method, path: path + q, headers, body: payload, target, dryRun };
}

function send(server: RunningServer, r: FuzzRequest): Promise<FuzzAnswer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.headers },
      (res) => {
        const chunks: Buffer[] = [];
        // A watch streams (no Content-Length): read what comes promptly, then hang up.
        const streamed = res.headers['content-length'] === undefined && r.method !== 'HEAD';
        const cut = streamed ? setTimeout(() => res.destroy(), 150) : undefined;
        let settled = false;
        const settle = () => {
          if (settled) return;
          settled = true;
          clearTimeout(cut);
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            streamed,
          });
        };
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer in 5 s: ${r.method} ${r.path.slice(0, 200)}`)),
      5000,
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(r.body);
  });
}

const STATUS_BODY_EXEMPT = new Set(['HEAD']);

/**
 * The 500s kube-apiserver itself answers: server-side apply's typing errors reach the handler as
 * plain Go errors (managedfields structuredmerge.go `Apply`), a reasonless 500 (see
 * src/server/schema/write-rules.ts).
 */
const UPSTREAM_500 =
  /^(failed to (create typed patch object|convert new object) \(|resourceVersion: Invalid value: .*: strconv\.ParseUint: parsing )/;

/**
 * Go's `http.NotFound`, which kube-apiserver's non-go-restful mux answers for a path no web service
 * claims (k8s.io/apiserver pkg/server/handler.go director.ServeHTTP): plain text, not a Status.
 */
const GO_NOT_FOUND = '404 page not found\n';

interface StatusBody {
  kind?: string;
  apiVersion?: string;
  status?: string;
  code?: number;
  message?: unknown;
  reason?: unknown;
}

/**
 * An error answer's Status: YAML when the request asked for YAML (kube-apiserver writes its errors
 * in the negotiated format too), JSON otherwise; undefined when it does not parse.
 */
function statusOf(r: FuzzRequest, a: FuzzAnswer): StatusBody | undefined {
  const yaml =
    r.headers.accept === 'application/yaml' &&
    String(a.headers['content-type']).startsWith('application/yaml');
  try {
    const parsed: unknown = yaml ? parseYaml(a.text) : JSON.parse(a.text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : undefined;
  } catch {
    return undefined;
  }
}

/** A 500 kube-apiserver answers too: a plain Go error made a Status without a reason. */
function upstream500(a: FuzzAnswer, status: StatusBody | undefined): boolean {
  return (
    a.status === 500 &&
    status?.code === 500 &&
    (status.reason === undefined || status.reason === '') &&
    typeof status.message === 'string' &&
    UPSTREAM_500.test(status.message)
  );
}

/** Checks one answer's shape; returns a description of what is wrong, or undefined. */
function problem(r: FuzzRequest, a: FuzzAnswer): string | undefined {
  if (!Number.isInteger(a.status) || a.status < 200 || a.status > 599) return `status ${a.status}`;
  // kube-openapi's handlers refuse an Accept they cannot serve with a bare 406, no body
  // (pkg/handler/handler.go ServeHTTP, pkg/handler3/handler.go).
  if (a.status === 406 && a.text === '' && routed(r.path).startsWith('/openapi/')) return undefined;
  if (a.status === 404 && a.text === GO_NOT_FOUND) {
    return String(a.headers['content-type']) === 'text/plain; charset=utf-8'
      ? undefined
      : `Go's 404 text served as ${a.headers['content-type']}`;
  }
  const status = a.status >= 400 ? statusOf(r, a) : undefined;
  if (a.status >= 500 && a.status !== 504 && !upstream500(a, status)) {
    return `server error ${a.status}: ${a.text.slice(0, 300)}`;
  }
  if (STATUS_BODY_EXEMPT.has(r.method)) return undefined;
  if (a.status >= 400) {
    if (status === undefined) {
      return `error ${a.status} without a JSON or YAML Status: ${JSON.stringify(a.text.slice(0, 200))}`;
    }
    if (status.kind !== 'Status' || status.apiVersion !== 'v1' || status.status !== 'Failure') {
      return `error ${a.status} body is not a Failure Status: ${a.text.slice(0, 200)}`;
    }
    if (status.code !== a.status) return `Status code ${status.code} on an HTTP ${a.status}`;
    if (typeof status.message !== 'string' || status.message === '')
      return `Status without message: ${a.text}`;
    if ((typeof status.reason !== 'string' || status.reason === '') && !upstream500(a, status)) {
      return `Status without reason: ${a.text}`;
    }
    const type = String(a.headers['content-type']);
    if (!type.startsWith('application/json') && !type.startsWith('application/yaml'))
      return `Status served as ${type}`;
    return undefined;
  }
  if (a.streamed) {
    // Only complete lines: the stream was cut on purpose.
    const lines = a.text.split('\n').slice(0, -1);
    for (const line of lines) {
      let event: { type?: unknown; object?: unknown };
      try {
        event = JSON.parse(line);
      } catch {
        return `watch line is not JSON: ${line.slice(0, 200)}`;
      }
      if (!['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'].includes(String(event.type))) {
        return `watch event type ${String(event.type)}`;
      }
      if (typeof event.object !== 'object' || event.object === null) return 'watch event without object';
    }
    return undefined;
  }
  const type = String(a.headers['content-type'] ?? '');
  if (type.includes('json')) {
    try {
      JSON.parse(a.text);
    } catch {
      return `2xx JSON answer does not parse: ${a.text.slice(0, 200)}`;
    }
  } else if (type === '') {
    return 'answer without Content-Type';
  }
  return undefined;
}

/** A DELETE's Status answer (status/response.go-style details of what went). */
interface DeletedStatus {
  status?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string };
}

/** What the successful writes said: each object's latest resourceVersion and whether it exists. */
class ObjectModel {
  readonly objects = new Map<string, { rv: number; exists: boolean }>();
  /** Namespaces deleted (their content goes without answers) and keys no answer pins down. */
  readonly doomedNamespaces = new Set<string>();
  readonly uncertain = new Set<string>();
  writes = 0;

  static key(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
    return `${apiVersion}/${kind}/${namespace ?? ''}/${name}`;
  }

  observe(r: FuzzRequest, a: FuzzAnswer): void {
    if (a.status < 200 || a.status >= 300 || r.dryRun) return;
    if (r.method !== 'POST' && r.method !== 'PUT' && r.method !== 'PATCH' && r.method !== 'DELETE') return;
    let body: KubeObject & { items?: KubeObject[] };
    try {
      body = JSON.parse(a.text);
    } catch {
      return;
    }
    if (body.kind === 'Scale') {
      const m = body.metadata ?? {};
      const kinds = r.target?.kind ? [r.target.kind] : REGISTRY.filter((k) => k.scale);
      for (const k of kinds) {
        const key = ObjectModel.key(
          k.group ? `${k.group}/${k.version}` : k.version,
          k.kind,
          m.namespace,
          m.name!,
        );
        if (r.target?.kind) this.record(key, Number(m.resourceVersion), true);
        else this.uncertain.add(key);
      }
      return;
    }
    if (body.kind === 'Status') {
      if (r.method === 'DELETE') this.observeDeleted(r, body as DeletedStatus);
      return;
    }
    if (Array.isArray(body.items)) {
      // A deletecollection's list: built-in kinds' items carry no apiVersion/kind, as
      // kube-apiserver's lists; the list's own say what they are. Its items are as they were
      // read, before their deletion (registry/store.go DeleteCollection returns the list it read):
      // one that a finalizer (its own, or the orphan/foreground one a propagation policy adds)
      // keeps is marked at a resourceVersion no answer gives.
      const kind = typeof body.kind === 'string' ? body.kind.replace(/List$/, '') : undefined;
      const policyFinalizer = /Foreground|Orphan|orphanDependents/.test(
        `${r.path} ${r.body?.toString() ?? ''}`,
      );
      for (const item of body.items) {
        const obj = { apiVersion: body.apiVersion, kind, ...item };
        const m = obj.metadata ?? {};
        if (r.method === 'DELETE' && (policyFinalizer || (m.finalizers?.length ?? 0) > 0)) {
          this.uncertain.add(ObjectModel.key(obj.apiVersion!, obj.kind!, m.namespace, m.name!));
        } else this.recordObject(obj, r.method === 'DELETE');
      }
      return;
    }
    if (body.metadata && typeof body.kind === 'string') this.recordObject(body, r.method === 'DELETE');
  }

  /**
   * A DELETE answered with a Status (kube-apiserver's for most kinds once the object is gone;
   * pods, namespaces and services answer the object): it names the resource and the object but
   * carries no resourceVersion, so the deletion is placed at the latest one known for the key
   * (what the deleted object's own would have been).
   */
  private observeDeleted(r: FuzzRequest, status: DeletedStatus): void {
    const d = status.details;
    if (status.status !== 'Success' || !d?.name || !d.kind) return;
    const kind = REGISTRY.find((k) => k.plural === d.kind && k.group === (d.group ?? ''));
    if (!kind) return;
    const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
    let namespaces: (string | undefined)[] = [undefined];
    if (kind.namespaced) {
      const m = /\/namespaces\/([^/]+)\//.exec(routed(r.path));
      // A path too mangled to read the namespace from: any of them may have lost the object.
      namespaces = r.target?.namespace !== undefined ? [r.target.namespace] : m ? [m[1]] : NAMESPACES;
    }
    for (const namespace of namespaces) {
      const key = ObjectModel.key(apiVersion, kind.kind, namespace, d.name);
      if (namespaces.length > 1) this.uncertain.add(key);
      else this.record(key, this.objects.get(key)?.rv ?? 0, false);
    }
  }

  recordObject(obj: KubeObject, deleting: boolean): void {
    const m = obj.metadata ?? {};
    if (obj.kind === 'Namespace' && m.deletionTimestamp) this.doomedNamespaces.add(m.name!);
    // Deleted outright, or marked and then freed of its last finalizer: gone.
    const gone =
      (deleting && !m.deletionTimestamp) || (!!m.deletionTimestamp && !(m.finalizers?.length ?? 0));
    this.record(
      ObjectModel.key(obj.apiVersion!, obj.kind!, m.namespace, m.name!),
      Number(m.resourceVersion),
      !gone,
    );
  }

  private record(key: string, rv: number, exists: boolean): void {
    this.writes++;
    const known = this.objects.get(key);
    // Concurrent answers arrive in any order: the highest resourceVersion is the latest state.
    if (!known || rv >= known.rv) this.objects.set(key, { rv, exists });
  }

  excluded(key: string): boolean {
    if (this.uncertain.has(key)) return true;
    const [, , namespace, name] = key.split('/').slice(-4);
    return (
      this.doomedNamespaces.has(namespace) ||
      (key.includes('/Namespace//') && this.doomedNamespaces.has(name))
    );
  }
}

async function listAll(server: RunningServer, kind: ResourceKind): Promise<KubeObject[]> {
  const a = await send(server, {
    method: 'GET',
    path: `${kindPrefix(kind)}/${kind.plural}`,
    headers: {},
    dryRun: false,
  });
  expect(a.status, a.text).toBe(200);
  const list = JSON.parse(a.text) as {
    kind: string;
    items: KubeObject[];
    metadata: { resourceVersion: string };
  };
  expect(list.kind).toBe(`${kind.kind}List`);
  for (const item of list.items) {
    expect(Number(item.metadata?.resourceVersion)).toBeLessThanOrEqual(Number(list.metadata.resourceVersion));
  }
  // Built-in kinds' list items carry no apiVersion/kind, as kube-apiserver's: the list says them.
  const apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
  return list.items.map((item) => ({ apiVersion, kind: kind.kind, ...item }));
}

describe(`fuzz (seed ${SEED})`, () => {
  let server: RunningServer;
  const model = new ObjectModel();
  beforeAll(async () => {
    server = await startTestServer({ tooLargeWait: 50 });
    for (const ns of NAMESPACES) {
      const r: FuzzRequest = {
        method: 'POST',
        path: '/api/v1/namespaces',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })),
        dryRun: false,
      };
      const a = await send(server, r);
      expect(a.status, a.text).toBe(201);
    }
    // Whatever the server starts with (default namespaces...) is part of the model too.
    for (const kind of REGISTRY)
      for (const obj of await listAll(server, kind)) model.recordObject(obj, false);
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${REQUESTS} random requests all get well-formed answers, and the server keeps answering`, async () => {
    const problems: string[] = [];
    const byStatus = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const i = next++;
        const r = buildRequest();
        let a: FuzzAnswer;
        try {
          a = await send(server, r);
        } catch (err) {
          problems.push(`#${i} ${r.method} ${r.path.slice(0, 200)}: ${(err as Error).message}`);
          continue;
        }
        byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
        const p = problem(r, a);
        if (p)
          problems.push(
            `#${i} ${r.method} ${r.path.slice(0, 200)} [${r.headers['content-type'] ?? ''}]: ${p}`,
          );
        model.observe(r, a);
        if (a.status === 200 && r.method === 'GET' && !a.streamed) {
          const token = /"continue":"([^"]+)"/.exec(a.text)?.[1];
          if (token) continueTokens.push(token);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    expect(problems, `seed ${SEED}`).toEqual([]);
    // The mix is worth something only if it reached every class of answer.
    const codes = [...byStatus.keys()];
    for (const code of [200, 201, 400, 404, 405, 409, 415, 422])
      expect(codes, JSON.stringify([...byStatus])).toContain(code);
    expect(model.writes).toBeGreaterThan(50);
    const health = await send(server, { method: 'GET', path: '/healthz', headers: {}, dryRun: false });
    expect([health.status, health.text]).toEqual([200, 'ok']);
  });

  it('the final lists hold exactly what the successful writes imply', async () => {
    // Deleted namespaces (and their content) are excluded: their cleanup runs in the background.
    const listed = new Map<string, number>();
    for (const kind of REGISTRY) {
      for (const obj of await listAll(server, kind)) {
        const m = obj.metadata ?? {};
        listed.set(
          ObjectModel.key(obj.apiVersion!, obj.kind!, m.namespace, m.name!),
          Number(m.resourceVersion),
        );
      }
    }
    const mismatches: string[] = [];
    for (const [key, rv] of listed) {
      if (model.excluded(key)) continue;
      const known = model.objects.get(key);
      if (!known?.exists)
        mismatches.push(
          `${key}@${rv} is listed, but the writes said ${known ? `deleted @${known.rv}` : 'nothing'}`,
        );
      else if (known.rv !== rv)
        mismatches.push(`${key} is listed @${rv}, the last write answered @${known.rv}`);
    }
    for (const [key, known] of model.objects) {
      if (known.exists && !model.excluded(key) && !listed.has(key))
        mismatches.push(`${key}@${known.rv} is missing`);
    }
    expect(mismatches).toEqual([]);
    expect(listed.size).toBeGreaterThan(0);
  });
});
