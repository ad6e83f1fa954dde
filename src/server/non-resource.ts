/**
 * The paths that name no resource: health roots, `/version`, discovery,
 * OpenAPI and `/metrics`, as kube-apiserver's non-go-restful mux and its
 * discovery web services answer them. director.ts sends here whatever
 * request info did not read as a resource URL (watchmark's own
 * `/debug/watchmark/*` actions aside: debug-routes.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../protocol/clock.js';
import { StatusError } from '../protocol/status.js';
import { alwaysHealthy, type HealthCheck, HealthEndpoints } from './http/health.js';
import { sendJson } from './http/http-io.js';
import { negotiateDiscovery, parseAccept } from './http/media-types.js';
import {
  answerNotFound,
  claimedByGoRestful,
  negotiateDocument,
  notAcceptable,
  servedForAnyMethod,
  servedGroups,
} from './http/non-resource-routes.js';
import { routeMethodNotAllowed } from './http/request-info.js';
import type { KindTable } from './kinds/served/kind-table.js';
import { aggregatedDiscovery } from './openapi/aggregated-discovery.js';
import {
  legacyApiGroup,
  legacyApiGroupList,
  legacyApiResourceList,
  legacyApiVersions,
} from './openapi/legacy-discovery.js';
import { versionInfo } from './openapi/version.js';
import type { ServiceAccountTokenIssuer } from './pki/service-account-token.js';
import type { ServerMetrics } from './stats/metrics.js';
import type { ServerStats } from './stats/stats.js';
import type { Store } from './stores/types.js';

/** What the non-resource paths need from the server. */
export interface NonResourceContext {
  stats: ServerStats;
  health: HealthEndpoints;
  metrics: ServerMetrics;
  kinds: KindTable;
  /** The service-account token issuer whose discovery documents `/.well-known` and `/openid` serve. */
  tokenIssuer?: ServiceAccountTokenIssuer;
}

/**
 * The checks behind `/healthz`, `/livez` and `/readyz`, as kube-apiserver
 * registers them: `ping` and `log` everywhere, `etcd` over etcd with
 * `--etcd-healthcheck-timeout`'s default of 2 s, and `/readyz`'s `shutdown`
 * failing once the server is closing, so load balancers stop sending to it.
 */
export function serverHealth(store: Store, clock: Clock, closing: () => boolean): HealthEndpoints {
  const base = [alwaysHealthy('ping'), alwaysHealthy('log')];
  if (store.name === 'etcd') {
    base.push({
      name: 'etcd',
      check: () =>
        new Promise<void>((resolve, reject) => {
          const timer = clock.setTimeout(() => reject(new Error('etcd did not answer within 2s')), 2_000);
          store.currentRevision().then(
            () => {
              timer.cancel();
              resolve();
            },
            (err: Error) => {
              timer.cancel();
              reject(err);
            },
          );
        }),
    });
  }
  const shutdown: HealthCheck = {
    name: 'shutdown',
    check: async () => {
      if (closing()) throw new Error('process is shutting down');
    },
  };
  return new HealthEndpoints({ healthz: base, livez: base, readyz: [...base, shutdown] });
}

function reply(
  ctx: NonResourceContext,
  res: ServerResponse,
  code: number,
  body: unknown,
  contentType?: string,
) {
  ctx.stats.responseBytesWritten += sendJson(res, code, body, contentType);
}

/** http.ServeContent's conditional GET (`checkIfNoneMatch`): true when If-None-Match names `etag`. */
function matchesEtag(req: IncomingMessage, etag: string): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  return ifNoneMatch?.split(',').some((t) => t.trim() === etag || t.trim() === '*') === true;
}

/**
 * One `/openapi/v3/<group-version>` document, as kube-openapi handler3.go `HandleGroupVersion`
 * serves it: its hash as the quoted ETag (a matching If-None-Match is a 304); with `?hash=`, a
 * 301 to the current document's URL when the hash is stale (the kinds changed since the client
 * read the root), else the document marked immutable for a year.
 */
function serveOpenApiV3Document(
  ctx: NonResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  doc: { key: string; body: string; hash: string },
  query: URLSearchParams,
): void {
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    Etag: `"${doc.hash}"`,
    Vary: 'Accept',
  };
  const hash = query.get('hash');
  if (hash) {
    if (hash !== doc.hash) {
      res.writeHead(301, { ...headers, Location: `/openapi/v3/${doc.key}?hash=${doc.hash}` });
      res.end();
      return;
    }
    headers['Cache-Control'] = 'public, immutable';
    headers.Expires = new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString().replace('GMT', 'UTC');
  }
  if (matchesEtag(req, headers.Etag as string)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  headers['Content-Length'] = Buffer.byteLength(doc.body);
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : doc.body);
  ctx.stats.responseBytesWritten += Buffer.byteLength(doc.body);
}

/**
 * Answers a GET or HEAD of a non-resource path, or throws a 404 Status. Another method is
 * refused as the part of the chain that owns the path refuses it: go-restful with its 405, the
 * mux (whose handlers take any method where they serve one) with its 404.
 */
export async function serveNonResource(
  ctx: NonResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (ctx.tokenIssuer && (path === OPENID_CONFIGURATION || path === OPENID_JWKS)) {
    return serveIssuerDiscovery(ctx, ctx.tokenIssuer, req, res, path);
  }
  if (method !== 'GET' && method !== 'HEAD' && !servedForAnyMethod(path)) {
    if (claimedByGoRestful(path, servedGroups(ctx.kinds))) throw routeMethodNotAllowed();
    return notFound(ctx, res, path);
  }
  const health = await ctx.health.answer(path, query);
  if (health) {
    res.writeHead(health.code, {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end(health.body);
    ctx.stats.responseBytesWritten += Buffer.byteLength(health.body);
    return;
  }
  switch (path) {
    case '/version':
      return replyDocument(ctx, req, res, path, versionInfo(), 'json-only');
    case '/api':
    case '/apis': {
      const scope = path === '/api' ? 'core' : 'groups';
      const negotiated = negotiateDiscovery(req.headers.accept);
      if (negotiated !== 'legacy') {
        const body = aggregatedDiscovery(ctx.kinds.all(), scope, negotiated.version);
        if (negotiated.protobuf) {
          protobufAnswer ??= import('./handlers/protobuf-answer.js');
          await (await protobufAnswer).answerInProtobuf(res, { contentType: negotiated.contentType });
        }
        return reply(ctx, res, 200, body, negotiated.contentType);
      }
      return replyDocument(
        ctx,
        req,
        res,
        path,
        scope === 'core'
          ? legacyApiVersions(ctx.kinds.all(), serverAddressOf(req))
          : legacyApiGroupList(ctx.kinds.all()),
      );
    }
    case '/openapi/v2': {
      const { openApiV2Response } = await import('./openapi/openapi.js');
      const v2 = await openApiV2Response(ctx.kinds.all(), req.headers.accept);
      if (v2.status === 406) {
        res.writeHead(406, { Vary: 'Accept', 'Content-Length': 0 });
        res.end();
        return;
      }
      // kube-openapi handler.go: the quoted ETag, and http.ServeContent's conditional GET.
      const headers = { 'Content-Type': v2.contentType, Etag: `"${v2.etag}"`, Vary: 'Accept' };
      if (matchesEtag(req, headers.Etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, { ...headers, 'Content-Length': v2.body.length });
      res.end(req.method === 'HEAD' ? undefined : v2.body);
      ctx.stats.responseBytesWritten += v2.body.length;
      return;
    }
    case '/metrics': {
      const { contentType, body } = await ctx.metrics.render();
      return reply(ctx, res, 200, body, contentType);
    }
  }
  if (path.startsWith('/openapi/v3')) {
    const { servedOpenApiV3 } = await import('./openapi/openapi.js');
    const openapi = await servedOpenApiV3(ctx.kinds.all());
    // kube-openapi serves the index through http.ServeContent, which sniffs JSON text as text/plain.
    if (path === '/openapi/v3') return reply(ctx, res, 200, openapi.root, 'text/plain; charset=utf-8');
    const doc = openapi.documents.get(path.slice('/openapi/v3/'.length));
    if (doc) return serveOpenApiV3Document(ctx, req, res, doc, query);
  }
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts.length === 2) {
    const list = legacyApiResourceList(ctx.kinds.all(), '', parts[1]);
    if (list) return replyDocument(ctx, req, res, path, list);
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const group = legacyApiGroup(ctx.kinds.all(), parts[1]);
    if (group) return replyDocument(ctx, req, res, path, group);
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const list = legacyApiResourceList(ctx.kinds.all(), parts[1], parts[2]);
    if (list) return replyDocument(ctx, req, res, path, list);
  }
  return notFound(ctx, res, path);
}

const OPENID_CONFIGURATION = '/.well-known/openid-configuration';
const OPENID_JWKS = '/openid/v1/jwks';

/**
 * The service-account issuer's discovery (pkg/routes/openidmetadata.go): two go-restful GET
 * routes, compact JSON cached for an hour; the key set's URL is the server's own address.
 */
function serveIssuerDiscovery(
  ctx: NonResourceContext,
  issuer: ServiceAccountTokenIssuer,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw routeMethodNotAllowed();
  const configuration = path === OPENID_CONFIGURATION;
  const produces = configuration ? 'application/json' : 'application/jwk-set+json';
  // go-restful's route produces one type: an Accept naming neither it nor a wildcard over it is a 406.
  const accepted = parseAccept(req.headers.accept);
  const [type, subtype] = produces.split('/');
  if (
    accepted.length > 0 &&
    !accepted.some((r) => (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype))
  ) {
    throw StatusError.of(
      'NotAcceptable',
      `406: Not Acceptable\n\nAvailable representations: ${produces}`,
      {},
    );
  }
  const body = JSON.stringify(
    configuration
      ? issuer.openidConfiguration(`https://${serverAddressOf(req) ?? 'localhost'}${OPENID_JWKS}`)
      : issuer.jwks(),
  );
  res.writeHead(200, {
    'Cache-Control': 'public, max-age=3600',
    'Content-Type': produces,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  ctx.stats.responseBytesWritten += Buffer.byteLength(body);
}

/** A path nothing serves: go-restful's JSON 404 under its web services, else the mux's text 404. */
function notFound(ctx: NonResourceContext, res: ServerResponse, path: string): void {
  ctx.stats.responseBytesWritten += answerNotFound(res, path, servedGroups(ctx.kinds));
}

let protobufAnswer: Promise<typeof import('./handlers/protobuf-answer.js')> | undefined;

/** A discovery or version document in the representation the Accept header asks for, or its 406. */
async function replyDocument(
  ctx: NonResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  body: unknown,
  offers: 'discovery' | 'json-only' = 'discovery',
): Promise<void> {
  const representation = negotiateDocument(req.headers.accept, offers);
  // The refusal itself is written in YAML or protobuf to a client that accepts it (responsewriters
  // negotiate errors too: `/version` refuses protobuf in protobuf).
  const form = representation ?? negotiateDocument(req.headers.accept, 'discovery');
  if (form === 'protobuf') {
    protobufAnswer ??= import('./handlers/protobuf-answer.js');
    await (await protobufAnswer).answerInProtobuf(res);
  }
  if (representation === undefined) {
    const refusal = notAcceptable(path, servedGroups(ctx.kinds));
    if (form !== 'yaml') throw refusal;
    await replyYaml(ctx, res, refusal.status.code, refusal.status);
  } else if (representation === 'yaml') {
    await replyYaml(ctx, res, 200, body);
  } else {
    reply(ctx, res, 200, body);
  }
}

/**
 * sigs.k8s.io/yaml's form: the JSON value, keys sorted, as YAML. The YAML library is loaded on
 * the first such answer: importing the server does not pay for it.
 */
async function replyYaml(
  ctx: NonResourceContext,
  res: ServerResponse,
  code: number,
  body: unknown,
): Promise<void> {
  const { stringify: stringifyYaml } = await import('yaml');
  const text = stringifyYaml(body, { sortMapEntries: true, indentSeq: false });
  res.writeHead(code, { 'Content-Type': 'application/yaml', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  ctx.stats.responseBytesWritten += Buffer.byteLength(text);
}

/** The host:port this request reached, for `/api`'s serverAddressByClientCIDRs (kube: its advertise address). */
function serverAddressOf(req: IncomingMessage): string | undefined {
  const address = req.socket.localAddress?.replace(/^::ffff:/, '');
  const port = req.socket.localPort;
  if (!address || !port) return undefined;
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}
