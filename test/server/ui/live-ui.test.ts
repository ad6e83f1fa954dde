/**
 * The live view's door and stream over real HTTP(S), without a browser: who
 * gets in (one-time link, token form, bearer token, --insecure-no-auth), what
 * an anonymous request gets (401, never data), the buttons' guard, and the
 * frames a watch of the real client library produces.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { installCrd } from '../../helpers/crds.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';
import { call, startTestServer, watch } from '../../helpers/server.js';
import { cookieOf, openEventStream, uiRequest } from '../../helpers/ui-http.js';
import { widget, widgetCrd } from '../../helpers/widget.js';

describe('the /ui door (TLS, token auth)', () => {
  let server: RunningServer;
  let dir: string;
  const tempDir = tempDirForFile('watchmark-ui-');
  beforeAll(async () => {
    dir = tempDir();
    server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      ui: true,
      compactionInterval: 0,
      bookmarkInterval: 200,
      kubeconfigOut: join(dir, 'kubeconfig'),
    });
  });
  afterAll(async () => {
    await server?.close();
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    uiRequest(`${server.url}${path}`, { headers, ca: server.caPem });

  it('answers anonymous requests with the login form or a 401 Status, never data', async () => {
    const page = await get('/ui');
    expect(page.status).toBe(401);
    expect(page.text).toContain('name="token"');
    expect(page.text).not.toContain('/ui/app.js');
    for (const path of ['/ui/app.js', '/ui/events', '/ui/app.css']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(401);
      expect(JSON.parse(answer.text)).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    }
    const form = await get('/ui/login');
    expect(form.status).toBe(401);
    expect(form.text).toContain('name="token"');
    const action = await uiRequest(`${server.url}/ui/actions/compact`, { method: 'POST', ca: server.caPem });
    expect(action.status).toBe(401);
  });

  it('opens a session once per login link: an HttpOnly, Secure, SameSite=Strict cookie scoped to /ui', async () => {
    const link = server.uiLoginUrl()!;
    expect(link).toMatch(new RegExp(`^${server.url}/ui/login\\?code=[\\w-]{20,}$`));
    const login = await uiRequest(link, { ca: server.caPem });
    expect(login.status).toBe(303);
    const setCookie = login.headers['set-cookie']![0];
    expect(setCookie).toMatch(/; Path=\/ui; HttpOnly; SameSite=Strict; Secure$/);
    const cookie = cookieOf(login);
    expect((await get('/ui', { cookie })).status).toBe(200);
    // The cookie opens the page, not the API.
    expect((await get('/api/v1/pods', { cookie })).status).toBe(401);
    const again = await uiRequest(link, { ca: server.caPem });
    expect(again.status).toBe(401);
    expect(again.text).toContain('already used');
    expect((await get('/ui', { cookie: 'watchmark_ui=forged' })).status).toBe(401);
  });

  it('takes the token once through the form, and the bearer token directly', async () => {
    const wrong = await uiRequest(`${server.url}/ui/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=nope',
      ca: server.caPem,
    });
    expect(wrong.status).toBe(401);
    const right = await uiRequest(`${server.url}/ui/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: server.token! }).toString(),
      ca: server.caPem,
    });
    expect(right.status).toBe(303);
    expect((await get('/ui', { cookie: cookieOf(right) })).status).toBe(200);
    expect((await get('/ui', { authorization: `Bearer ${server.token}` })).status).toBe(200);
  });

  it('runs a fault injection only with the page header (a cross-site form cannot send it)', async () => {
    const auth = { authorization: `Bearer ${server.token}` };
    const bare = await uiRequest(`${server.url}/ui/actions/compact`, {
      method: 'POST',
      headers: auth,
      ca: server.caPem,
    });
    expect(bare.status).toBe(403);
    const compact = await uiRequest(`${server.url}/ui/actions/compact`, {
      method: 'POST',
      headers: { ...auth, 'x-watchmark-ui': '1' },
      ca: server.caPem,
    });
    expect(compact.status).toBe(200);
    expect(JSON.parse(compact.text).compactedRevision).toBeGreaterThan(0);
  });

  it('streams lanes of real watches: events, bookmarks, and a resume after a drop', async () => {
    const kube = await KubeClient.load({ kubeconfig: server.kubeconfigPath, userAgent: 'lane-test' });
    const events = await openEventStream(`${server.url}/ui/events`, {
      headers: { authorization: `Bearer ${server.token}` },
      ca: server.caPem,
    });
    const watcher = kube.watcher(
      'configmaps',
      { namespace: 'default', labelSelector: 'app=ui' },
      {
        backoff: { initialMs: 20, maxMs: 50 },
      },
    );
    const drained = (async () => {
      for await (const _ of watcher) {
        // counted on the lane
      }
    })();
    try {
      const ours = (f: any) => f.lanes.find((l: any) => l.userAgent === 'lane-test');
      // The watch is open (after its list): the next change reaches it as an event.
      await events.waitFor((f) => ours(f)?.open === 1);
      await kube.resource('configmaps', 'default').create({ metadata: { name: 'a', labels: { app: 'ui' } } });
      const withEvent = await events.waitFor((f) => ours(f)?.marks.some((m: any) => m.kind === 'event'));
      expect(ours(withEvent)).toMatchObject({
        resource: 'configmaps',
        namespace: 'default',
        labelSelector: 'app=ui',
        bookmarks: true,
        address: '127.0.0.1',
        open: 1,
      });
      // A write it does not select moves the server on: its next bookmark carries that version.
      await kube.resource('configmaps', 'default').create({ metadata: { name: 'other' } });
      await events.waitFor((f) => ours(f)?.marks.some((m: any) => m.kind === 'bookmark'));
      expect(server.dropWatches()).toBeGreaterThan(0);
      const resumed = await events.waitFor((f) => ours(f)?.counts.resumes === 1);
      expect(ours(resumed).story.slice(-2)).toEqual(['dropped', expect.stringMatching(/^resume from \d+/)]);
      expect(events.frames.some((f) => f.notes.some((n: any) => n.kind === 'drop'))).toBe(true);
    } finally {
      watcher.stop();
      await drained;
      events.close();
      await kube.close();
    }
  });
});

describe('the live view and custom resources', () => {
  it('shows a watch on a custom type as a lane of its own, named resource.group', async () => {
    const server = await startTestServer({ ui: true });
    try {
      await installCrd(server, widgetCrd());
      const events = await openEventStream(`${server.url}/ui/events`, {});
      const w = await watch(
        server,
        '/apis/example.com/v1/namespaces/default/widgets?watch=1&allowWatchBookmarks=true',
        {
          'user-agent': 'widget-lane',
        },
      );
      const lane = (f: any) => f.lanes.find((l: any) => l.userAgent === 'widget-lane');
      await events.waitFor((f) => lane(f)?.open === 1);
      await call(server, 'POST', '/apis/example.com/v1/namespaces/default/widgets', {
        body: widget('w'),
      });
      const withEvent = await events.waitFor((f) => lane(f)?.marks.some((m: any) => m.kind === 'event'));
      expect(lane(withEvent)).toMatchObject({
        resource: 'widgets.example.com',
        namespace: 'default',
        bookmarks: true,
      });
      w.close();
      events.close();
    } finally {
      await server.close();
    }
  });
});

describe('the /ui door with --insecure-no-auth, and without ui', () => {
  it('is open like the API when the API is', async () => {
    const server = await startTestServer({ ui: true });
    try {
      expect(server.uiLoginUrl()).toBe(`${server.url}/ui`);
      expect((await uiRequest(`${server.url}/ui`)).status).toBe(200);
      const login = await uiRequest(`${server.url}/ui/login`);
      expect(login.status).toBe(303);
      expect(login.headers['set-cookie']).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('is not served without ui (startServer default, serve --no-ui)', async () => {
    const server = await startTestServer();
    try {
      expect(server.uiLoginUrl()).toBeUndefined();
      expect((await uiRequest(`${server.url}/ui`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
