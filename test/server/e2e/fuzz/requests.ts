/** Whole fuzz requests, sensible or not, and how one is sent. */
import { request as httpRequest } from 'node:http';
import type { RunningServer } from '../../../../src/server/index.js';
import { REGISTRY } from '../../../../src/server/kinds/served/registry.js';
import { body, FUZZ_KINDS, validObject } from './bodies.js';
import {
  type FuzzAnswer,
  type FuzzRequest,
  mangle,
  NAMES,
  NAMESPACES,
  NON_RESOURCE,
  query,
  resourcePath,
  type Target,
} from './paths.js';
import { chance, pick } from './random.js';
export const SENSIBLE_KINDS = REGISTRY.filter((k) =>
  ['Pod', 'ConfigMap', 'Secret', 'Service', 'Deployment', 'Lease'].includes(k.kind),
);

/** A request a client could well send: valid target, valid object or patch, tame parameters. */
export function sensibleRequest(): FuzzRequest {
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
export function routed(path: string): string {
  const p = path.split('?')[0].replace(/%[0-9a-fA-F]{2}/g, (e) => {
    const c = String.fromCharCode(Number.parseInt(e.slice(1), 16));
    return c === '/' ? e : c;
  });
  return p.replace(/\/+/g, '/').replace(/\/$/, '');
}

export function buildRequest(): FuzzRequest {
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
    const kind = pick(FUZZ_KINDS);
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

export function send(server: RunningServer, r: FuzzRequest): Promise<FuzzAnswer> {
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
