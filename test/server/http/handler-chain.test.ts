/**
 * The handler chain (src/server/http/handler-chain.ts) on its own, over a plain HTTP server and
 * stand-in parts: each filter's job and their order, as DefaultBuildHandlerChain orders them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/protocol/clock.js';
import { StatusError } from '../../../src/protocol/status.js';
import { RequestGate } from '../../../src/server/faults/request-gate.js';
import type { ApiRequest, Filter, Handler } from '../../../src/server/http/api-request.js';
import { Authenticator } from '../../../src/server/http/auth.js';
import { buildHandlerChain, type HandlerChainConfig } from '../../../src/server/http/handler-chain.js';
import { closeServer } from '../../../src/server/http/listen.js';
import { KindTable } from '../../../src/server/kinds/served/kind-table.js';
import { waitUntil } from '../../helpers/wait.js';

const TOKEN = 'chain-test-token';

let server: Server | undefined;
afterEach(async () => {
  if (server) await closeServer(server);
  server = undefined;
});

/** A chain over a listening server; the director answers with what reached it. */
async function serve(parts: Partial<HandlerChainConfig> = {}) {
  const seen: ApiRequest[] = [];
  const director: Handler = async (request) => {
    seen.push(request);
    if (request.path === '/boom') throw new Error('kaboom');
    if (request.path === '/gone') throw StatusError.of('NotFound', 'not here');
    request.res.writeHead(200, { 'Content-Type': 'application/json' });
    request.res.end(
      JSON.stringify({ path: request.path, user: request.user?.name, kind: request.info?.kind.kind }),
    );
  };
  const config: HandlerChainConfig = {
    counts: { requests: 0, requestErrors: 0 },
    countBytes: () => {},
    log: () => {},
    clock: systemClock,
    recordsRequests: false,
    door: new RequestGate(),
    inFlight: new Set(),
    waitGroupExempt: (req) => req.url === '/exempt',
    sideDoors: [],
    authenticator: new Authenticator({ tokens: new Map([[TOKEN, { name: 'alice', groups: [] }]]) }),
    kinds: new KindTable(),
    resourceFilters: [],
    director,
    ...parts,
  };
  const http = createServer(buildHandlerChain(config));
  server = http;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const get = (path: string, token: string | null = TOKEN) =>
    fetch(`${base}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { config, seen, get };
}

describe('the handler chain', () => {
  it('authenticates: the user goes on the request; no credential is a 401, except on the public paths', async () => {
    const { get, seen } = await serve();
    expect(await (await get('/apis')).json()).toEqual({ path: '/apis', user: 'alice' });
    const refused = await get('/apis', null);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { reason: string }).reason).toBe('Unauthorized');
    expect((await get('/healthz', null)).status).toBe(200);
    expect(seen.map((r) => r.path)).toEqual(['/apis', '/healthz']);
  });

  it('resolves a resource URL before the resource filters and the director see it', async () => {
    const infos: Array<string | undefined> = [];
    const filter: Filter = (request, next) => {
      infos.push(request.info?.kind.plural);
      return next(request);
    };
    const { get } = await serve({ resourceFilters: [filter] });
    expect(await (await get('/api/v1/namespaces/default/configmaps')).json()).toMatchObject({
      kind: 'ConfigMap',
    });
    await get('/version');
    expect(infos).toEqual(['configmaps', undefined]);
    // An unknown resource is the router's 404 Status; a group nothing serves, the mux's text 404.
    expect(((await (await get('/api/v1/nothings')).json()) as { code: number }).code).toBe(404);
    const unknownGroup = await get('/apis/nowhere.example.com/v1/things');
    expect(unknownGroup.status).toBe(404);
    expect(await unknownGroup.text()).toBe('404 page not found\n');
  });

  it('answers what is thrown below as a Status, and a malformed path as a 400, and counts the errors', async () => {
    const { get, config } = await serve();
    const boom = await get('/boom');
    expect(boom.status).toBe(500);
    expect(((await boom.json()) as { message: string }).message).toBe('Internal error occurred: kaboom');
    expect((await get('/gone')).status).toBe(404);
    expect((await get('/%zz')).status).toBe(400);
    expect(config.counts).toEqual({ requests: 3, requestErrors: 3 });
  });

  it('lets a side door answer its own paths before authentication', async () => {
    const door: Filter = async (request, next) => {
      if (request.path !== '/ui') return next(request);
      request.res.end('the door');
    };
    const { get } = await serve({ sideDoors: [door] });
    expect(await (await get('/ui', null)).text()).toBe('the door');
    expect((await get('/apis', null)).status).toBe(401);
  });

  it('holds requests at a closed door, and counts those under way but the exempt ones', async () => {
    const door = new RequestGate();
    const inFlight = new Set<Promise<void>>();
    let sizeSeen = -1;
    const { get } = await serve({
      door,
      inFlight,
      authenticator: undefined,
      director: async (request) => {
        // Past the director's first step, the request is under way.
        await new Promise((resolve) => setImmediate(resolve));
        sizeSeen = inFlight.size;
        request.res.end(request.path);
      },
    });
    door.close();
    const held = get('/apis');
    await waitUntil(() => door.waitingCount === 1, 'the request held at the closed door');
    expect(door.waitingCount).toBe(1);
    door.open();
    expect(await (await held).text()).toBe('/apis');
    expect(sizeSeen).toBe(1);
    await get('/exempt');
    expect(sizeSeen).toBe(0);
    expect(inFlight.size).toBe(0);
  });
});
