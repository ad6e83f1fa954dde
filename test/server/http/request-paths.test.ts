/**
 * Tricky request paths, on every verb, against a real server: dot segments raw
 * and percent-encoded, empty segments, encoded slashes and percent signs,
 * trailing slashes. For each request the whole store is read before and after,
 * and every key that changed must lie inside what the path names: a request
 * never acts on another object (the namespace above a `..`, another namespace,
 * every namespace).
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server/index.js';
import { call, ensureNamespace, pod, startTestServer } from '../../helpers/server.js';

interface RawAnswer {
  status: number;
  body: any;
}

/** Sends `path` exactly as written: no URL parsing, so no dot segment is resolved on the way. */
function rawCall(server: RunningServer, method: string, path: string, body?: unknown, contentType?: string) {
  return new Promise<RawAnswer>((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string> = {};
    if (payload) {
      headers['content-type'] = contentType ?? 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const url = new URL(server.url);
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // a text answer
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every key of the store with the revision it was last written at. */
async function snapshot(server: RunningServer): Promise<Map<string, number>> {
  const { items } = await server.store.list('/');
  return new Map(items.map((kv) => [kv.key, kv.modRevision]));
}

function changedKeys(before: Map<string, number>, after: Map<string, number>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

const NS_VICTIM = ['/core/namespaces/victim', '/core/configmaps/victim/', '/core/pods/victim/'];

/**
 * One row: a raw path, the status every verb must get when the path is refused
 * whatever the verb (`refused`), and the key prefixes a verb may change.
 */
interface Row {
  path: string;
  refused?: number;
  /** Key prefixes a write to this path may change (empty: nothing may change). */
  names: string[];
}

const ROWS: Row[] = [
  // Dot segments as names: never resolved, refused as kube-apiserver's key functions refuse them.
  { path: '/api/v1/namespaces/victim/configmaps/..', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps/.', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps/%2e%2e', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps/%2E%2E', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps/.%2e', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps/%2e', refused: 400, names: [] },
  { path: '/api/v1/namespaces/v2/pods/%2e%2e', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/pods/%2e%2e/status', refused: 400, names: [] },
  { path: '/apis/apps/v1/namespaces/victim/deployments/..', refused: 400, names: [] },
  { path: '/api/v1/namespaces/..', refused: 400, names: [] },
  { path: '/api/v1/namespaces/.', refused: 400, names: [] },
  { path: '/api/v1/namespaces/%2e%2e', refused: 400, names: [] },
  { path: '/api/v1/namespaces/../status', refused: 400, names: [] },
  // Dot segments as namespaces: never "every namespace".
  { path: '/api/v1/namespaces/../configmaps', refused: 400, names: [] },
  { path: '/api/v1/namespaces/%2e%2e/configmaps', refused: 400, names: [] },
  { path: '/api/v1/namespaces/./configmaps/cm', refused: 400, names: [] },
  { path: '/api/v1/watch/namespaces/../configmaps', refused: 400, names: [] },
  // A percent sign inside a segment: a name holding it, refused.
  { path: '/api/v1/namespaces/victim/configmaps/cm%25', refused: 400, names: [] },
  // An encoded separator is a separator: Go routes on the decoded URL.Path, as the reference
  // shows (fidelity case routing/name-percent-encoded-slash). `a%2Fb` is name a with a
  // subresource b (no route), `victim%2F..%2Fv2` a dot segment as a resource (no route), and
  // `%2F` a trailing slash: the collection itself.
  { path: '/api/v1/namespaces/victim/configmaps/a%2Fb', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim%2F..%2Fv2/configmaps/cm', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim%2Fconfigmaps/cm', names: ['/core/configmaps/victim/cm'] },
  { path: '/api/v1/namespaces/victim/configmaps/%2F', names: ['/core/configmaps/victim/'] },
  // Dot segments and empty segments that leave no route.
  { path: '/api/v1/namespaces/victim/configmaps/cm/..', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps/../../v2/configmaps/cm', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim/./configmaps/cm', refused: 404, names: [] },
  { path: '/api/v1/./namespaces/victim/configmaps/cm', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim/pods/p/status/..', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim//configmaps/cm', refused: 404, names: [] },
  { path: '/api/v1/namespaces/victim/configmaps//cm', refused: 404, names: [] },
  { path: '/api/v1/namespaces//configmaps/cm', refused: 400, names: [] },
  { path: '/api/v1/namespaces//configmaps', refused: 400, names: [] },
  { path: '/api/v1/namespaces/victim/pods//status', refused: 400, names: [] },
  // What kube-apiserver's splitPath trims: leading and trailing slashes. These name real things.
  { path: '/api/v1/namespaces/victim/configmaps/cm/', names: ['/core/configmaps/victim/cm'] },
  { path: '//api/v1/namespaces/victim/configmaps/cm', names: ['/core/configmaps/victim/cm'] },
  { path: '/api/v1/namespaces/victim/configmaps/cm?x=/../../v2', names: ['/core/configmaps/victim/cm'] },
  { path: '/api/v1/namespaces/victim/configmaps/', names: ['/core/configmaps/victim/'] },
  { path: '/api/v1/namespaces/victim/', names: NS_VICTIM },
  // A name that is odd but legal as a path segment: addresses exactly that (absent) object.
  { path: '/api/v1/namespaces/victim/configmaps/..%5C..', names: [] },
];

const VERBS = ['GET', 'PATCH', 'PUT', 'POST', 'DELETE'] as const;

function bodyFor(verb: (typeof VERBS)[number]): { body?: unknown; contentType?: string } {
  const configMap = (name: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data: { written: 'yes' },
  });
  switch (verb) {
    case 'PATCH':
      return {
        body: { metadata: { labels: { touched: 'yes' } } },
        contentType: 'application/merge-patch+json',
      };
    case 'PUT':
      return { body: configMap('cm') };
    case 'POST':
      return { body: configMap('created') };
    case 'DELETE':
      return { body: { propagationPolicy: 'Background' } };
    default:
      return {};
  }
}

async function seed(server: RunningServer): Promise<void> {
  for (const ns of ['victim', 'v2']) {
    await ensureNamespace(server, ns);
    const cm = await call(server, 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } },
    });
    expect(cm.status).toBe(201);
    expect((await call(server, 'POST', `/api/v1/namespaces/${ns}/pods`, { body: pod('p') })).status).toBe(
      201,
    );
  }
  expect(
    (
      await call(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } },
      })
    ).status,
  ).toBe(201);
}

describe('request paths act only on what they name', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it.each(ROWS)('$path', async (row) => {
    server = await startTestServer();
    await seed(server);
    for (const verb of VERBS) {
      const before = await snapshot(server);
      const { body, contentType } = bodyFor(verb);
      const answer = await rawCall(server, verb, row.path, body, contentType);
      const changed = changedKeys(before, await snapshot(server));
      const what = `${verb} ${row.path} -> ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
      expect(answer.status, what).toBeLessThan(500);
      if (row.refused !== undefined) {
        expect(answer.status, what).toBe(row.refused);
        expect(answer.body?.kind, what).toBe('Status');
      }
      const outside = changed.filter((key) => !row.names.some((prefix) => key.startsWith(prefix)));
      expect(outside, what).toEqual([]);
    }
  });

  it('refusals carry kube-apiserver messages', async () => {
    server = await startTestServer();
    await seed(server);
    const dots = await rawCall(server, 'DELETE', '/api/v1/namespaces/victim/configmaps/..');
    expect(dots.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: `Name parameter invalid: "..": may not be '..'`,
    });
    const percent = await rawCall(server, 'GET', '/api/v1/namespaces/victim/configmaps/a%25b');
    expect(percent.body.message).toBe(`Name parameter invalid: "a%b": may not contain '%'`);
    const ns = await rawCall(server, 'GET', '/api/v1/namespaces/../pods');
    expect(ns.body.message).toBe(`Namespace parameter invalid: "..": may not be '..'`);
    const empty = await rawCall(server, 'GET', '/api/v1/namespaces//pods');
    expect(empty.body.message).toBe('Namespace parameter required.');
    const emptyName = await rawCall(server, 'GET', '/api/v1/namespaces/victim/pods//status');
    expect(emptyName.body.message).toBe('name must be provided');
  });

  it('a trailing slash addresses what the path without it addresses', async () => {
    server = await startTestServer();
    await seed(server);
    const one = await rawCall(server, 'GET', '/api/v1/namespaces/victim/configmaps/cm/');
    expect(one.status).toBe(200);
    expect(one.body.metadata.name).toBe('cm');
    const list = await rawCall(server, 'GET', '/api/v1/namespaces/victim/configmaps/');
    expect(list.body.kind).toBe('ConfigMapList');
    expect(list.body.items.map((i: any) => i.metadata.namespace)).toEqual(['victim']);
    const namespace = await rawCall(server, 'GET', '/api/v1/namespaces/victim/');
    expect(namespace.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'victim' } });
    const status = await rawCall(server, 'GET', '/api/v1/namespaces/victim/status/');
    expect(status.body).toMatchObject({ kind: 'Namespace', metadata: { name: 'victim' } });
  });
});
