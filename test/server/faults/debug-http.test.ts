/**
 * The faults over HTTP (`/debug/watchmark/faults/...`), as a test in Go or Python drives
 * them: behind the API's authentication, JSON in and out.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/protocol/clock.js';
import { startServer } from '../../../src/server/index.js';
import { cleanupAfterEach } from '../../helpers/lifecycle.js';
import { call, watch } from '../../helpers/server.js';
import { waitUntil } from '../../helpers/wait.js';

const cleanups = cleanupAfterEach();

async function serve(opts = {}) {
  const server = await startServer({ compactionInterval: 0, ...opts });
  cleanups.push(() => server.close());
  return server;
}

describe('/debug/watchmark/faults', () => {
  it('fail-next takes a FailRule as JSON; GET shows the rules left; clear removes them', async () => {
    const server = await serve();
    expect((await call(server, 'GET', '/debug/watchmark/faults', { token: 'wrong' })).status).toBe(401);
    const added = await call(server, 'POST', '/debug/watchmark/faults/fail-next', {
      body: { code: 504, verb: 'list', resource: 'namespaces', count: 2 },
    });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      paused: false,
      watchesStalled: false,
      requestsWaiting: 0,
      rules: [{ code: 504, verb: 'list', resource: 'namespaces', count: 2, hits: 0, remaining: 2 }],
    });
    const failed = await call(server, 'GET', '/api/v1/namespaces');
    expect(failed.status).toBe(504);
    expect(failed.body.reason).toBe('Timeout');
    expect((await call(server, 'GET', '/debug/watchmark/faults')).body.rules[0]).toMatchObject({
      hits: 1,
      remaining: 1,
    });
    expect((await call(server, 'POST', '/debug/watchmark/faults/clear')).body.rules).toEqual([]);
    expect((await call(server, 'GET', '/api/v1/namespaces')).status).toBe(200);

    const bad = await call(server, 'POST', '/debug/watchmark/faults/fail-next', { body: { code: 418 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/code 418 is not one of/);
    expect((await call(server, 'GET', '/debug/watchmark/faults/fail-next')).status).toBe(405);
    expect((await call(server, 'POST', '/debug/watchmark/faults/nope')).status).toBe(404);
  });

  it('stall-watches holds a stream until resume-watches', async () => {
    const server = await serve();
    const stream = await watch(
      server,
      `/api/v1/namespaces?watch=1&resourceVersion=${server.latestRevision()}`,
    );
    cleanups.push(async () => stream.close());
    await waitUntil(() => server.stats.openWatchers === 1, 'the watch to open');
    expect((await call(server, 'POST', '/debug/watchmark/faults/stall-watches')).body.watchesStalled).toBe(
      true,
    );
    await call(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'x' } } });
    await call(server, 'GET', '/api/v1/namespaces/x');
    expect(stream.events).toEqual([]);
    expect((await call(server, 'POST', '/debug/watchmark/faults/resume-watches')).body.watchesStalled).toBe(
      false,
    );
    expect((await stream.next()).type).toBe('ADDED');
  });

  it('pause needs a duration and resumes by itself after it (on the server clock)', async () => {
    const clock = new ManualClock(Date.now());
    const server = await serve({ clock });
    const refused = await call(server, 'POST', '/debug/watchmark/faults/pause', { body: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/durationMs/);
    const paused = await call(server, 'POST', '/debug/watchmark/faults/pause', {
      body: { durationMs: 5_000 },
    });
    expect(paused.body.paused).toBe(true);
    const before = server.stats.requests;
    let answered = false;
    const held = call(server, 'GET', '/livez').finally(() => {
      answered = true;
    });
    await waitUntil(() => server.stats.requests === before + 1, 'the request to arrive');
    clock.advance(4_999);
    expect(answered).toBe(false);
    clock.advance(1);
    expect((await held).status).toBe(200);
  });
});
