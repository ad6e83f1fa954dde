/**
 * The edges of the HTTP surface that kube-apiserver draws: which body media
 * types a create takes, how boolean query parameters are spelled, how large a
 * request head may be, and the health endpoints with their per-check paths,
 * over real HTTP and, where a user would, through the real kubectl.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryFlag } from '../../../src/server/http/query-flag.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { etcdAvailable, useEtcd } from '../../helpers/etcd.js';
import { call, ensureNamespace, startTestServer } from '../../helpers/server.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';
import { useKubectlServer } from '../kubectl/fixture.js';

const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'b' } };

/** The status and the first newline-terminated line (or the whole body) of a GET, then the socket is dropped. */
function firstLine(server: RunningServer, path: string): Promise<{ status: number; line: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (s: string) => {
        text += s;
        const nl = text.indexOf('\n');
        if (nl >= 0) {
          resolve({ status: res.statusCode ?? 0, line: text.slice(0, nl) });
          req.destroy();
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, line: text }));
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
    req.end();
  });
}

describe('HTTP edges as kube-apiserver draws them', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
    await ensureNamespace(server, 'edges');
    expect(
      (await call(server, 'POST', '/api/v1/namespaces/edges/configmaps', { body: CONFIG_MAP })).status,
    ).toBe(201);
  });
  afterAll(() => server.close());

  it.each(['text/plain', 'application/apply-patch+yaml', 'application/xml'])(
    'a create body sent as %s is 415 and stores nothing',
    async (type) => {
      const before = await server.store.currentRevision();
      const r = await call(server, 'POST', '/api/v1/namespaces/edges/configmaps', {
        body: { ...CONFIG_MAP, metadata: { name: 'typed' } },
        headers: { 'content-type': type },
      });
      expect(r.status).toBe(415);
      expect(r.body).toMatchObject({
        kind: 'Status',
        reason: 'UnsupportedMediaType',
        message:
          'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      });
      expect(await server.store.currentRevision()).toBe(before);
    },
  );

  it('a create body without Content-Type is read as JSON, as kube-apiserver negotiates it', async () => {
    const r = await call(server, 'POST', '/api/v1/namespaces/edges/configmaps', {
      body: { ...CONFIG_MAP, metadata: { name: 'untyped' } },
      headers: { 'content-type': '' },
    });
    expect(r.status).toBe(201);
  });

  it.each(['true', 'TRUE', 'True', '1', 'yes', ''])('watch=%j watches', async (value) => {
    const { status, line } = await firstLine(server, `/api/v1/namespaces/edges/configmaps?watch=${value}`);
    expect(status).toBe(200);
    expect(JSON.parse(line)).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap' } });
  });

  it.each(['false', 'FALSE', 'False', '0'])('watch=%j lists', async (value) => {
    const r = await call(server, 'GET', `/api/v1/namespaces/edges/configmaps?watch=${value}`);
    expect(r.status).toBe(200);
    expect(r.body.kind).toBe('ConfigMapList');
  });

  it('reads boolean parameters as the parameter codec does: only 0 and false (any case) are false', () => {
    expect(queryFlag(null)).toBeUndefined();
    expect(queryFlag(undefined)).toBeUndefined();
    for (const v of ['true', 'True', '1', '', 'yes', 'no', 'f']) expect(queryFlag(v), v).toBe(true);
    for (const v of ['false', 'FALSE', 'fAlSe', '0']) expect(queryFlag(v), v).toBe(false);
  });

  it('takes a 20 KB label selector (Node alone would answer 431), and refuses a head over 1 MiB', async () => {
    const selector = Array.from({ length: 1400 }, (_, i) => `key${i}=value${i}`).join(',');
    expect(selector.length).toBeGreaterThan(20_000);
    const ok = await call(
      server,
      'GET',
      `/api/v1/namespaces/edges/configmaps?labelSelector=${encodeURIComponent(selector)}`,
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ kind: 'ConfigMapList', items: [] });
    const huge = await call(server, 'GET', '/api/v1/namespaces/edges/configmaps', {
      headers: { 'x-padding': 'x'.repeat((1 << 20) + 8192) },
    });
    expect(huge.status).toBe(431);
  });

  it.each([
    ['/livez/ping', 'ok'],
    ['/readyz/ping', 'ok'],
    ['/healthz/ping', 'ok'],
    ['/livez/log', 'ok'],
    ['/livez', 'ok'],
    ['/readyz/', 'ok'],
    ['/livez?verbose', '[+]ping ok\n[+]log ok\nlivez check passed\n'],
    ['/readyz?verbose', '[+]ping ok\n[+]log ok\n[+]shutdown ok\nreadyz check passed\n'],
    ['/readyz?verbose&exclude=shutdown', '[+]ping ok\n[+]log ok\nreadyz check passed\n'],
  ])('GET %s answers as kube-apiserver', async (path, body) => {
    const r = await call(server, 'GET', path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.text).toBe(body);
  });

  it('an unknown check is 404', async () => {
    expect((await call(server, 'GET', '/livez/nonexistent')).status).toBe(404);
    expect((await call(server, 'GET', '/livez/ping/extra')).status).toBe(404);
  });
});

describe('health paths behind authentication', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('the roots are public, as system:public-info-viewer grants; a single check needs credentials', async () => {
    expect((await call(server, 'GET', '/livez', { token: 'nobody' })).status).toBe(200);
    expect((await call(server, 'GET', '/readyz', { token: 'nobody' })).status).toBe(200);
    expect((await call(server, 'GET', '/livez/ping', { token: 'nobody' })).status).toBe(401);
    expect((await call(server, 'GET', '/livez/ping')).text).toBe('ok');
  });
});

describe.skipIf(!etcdAvailable)('the etcd health check', () => {
  const etcd = useEtcd();

  it('passes while etcd answers and fails, reason withheld, once it is gone', async () => {
    const server = await startTestServer({ store: etcd.newStore() });
    try {
      expect((await call(server, 'GET', '/livez?verbose')).text).toBe(
        '[+]ping ok\n[+]log ok\n[+]etcd ok\nlivez check passed\n',
      );
      expect((await call(server, 'GET', '/readyz/etcd')).text).toBe('ok');
      await Promise.all(etcd.cluster.members.map((m) => m.kill()));
      const down = await call(server, 'GET', '/livez');
      expect(down.status).toBe(500);
      expect(down.text).toBe('[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\nlivez check failed\n');
      const one = await call(server, 'GET', '/livez/etcd');
      expect(one.status).toBe(500);
      expect(one.text).toMatch(/^internal server error: /);
    } finally {
      await server.close();
      await server.store.close();
    }
  }, 30_000);
});

const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);

describe.skipIf(!haveKubectl)('kubectl against the edges', () => {
  const env = useKubectlServer(kubectls[0], 'edges');

  it('kubectl get --raw reads the per-check health paths and the verbose roots', async () => {
    const ping = await env.kubectl.run(['get', '--raw', '/livez/ping']);
    expect(ping.stdout).toBe('ok');
    const verbose = await env.kubectl.run(['get', '--raw', '/readyz?verbose']);
    expect(verbose.stdout).toBe('[+]ping ok\n[+]log ok\n[+]shutdown ok\nreadyz check passed\n');
  });

  it('kubectl get with a 20 KB label selector gets an answer, not a 431', async () => {
    const selector = Array.from({ length: 1400 }, (_, i) => `key${i}=value${i}`).join(',');
    const r = await env.kubectl.inNamespace(['get', 'configmaps', '-l', selector]);
    expect(r.stderr).toBe('No resources found in edges namespace.\n');
    expect(r.code).toBe(0);
  });

  it('kubectl get --raw with a dot-segment name is refused with the key function message', async () => {
    const r = await env.kubectl.run(['get', '--raw', '/api/v1/namespaces/edges/configmaps/%2e%2e']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`Error from server (BadRequest): Name parameter invalid: "..": may not be '..'\n`);
  });
});
