/**
 * A pod's `log` (pkg/registry/core/pod/rest/log.go `LogREST`, a getter only): the pod read and
 * the container named (or the only one) checked as pkg/registry/core/pod/strategy.go
 * `LogLocation` checks it; a pod no node runs yet has no location, and kube-apiserver streams
 * nothing: a 204 without a body. A pod on a Node is read from its kubelet
 * (`containerLogs/<namespace>/<pod>/<container>` on the Node's address and kubelet port, as
 * `genericrest.LocationStreamer` reads it): a kubelet out of reach is the client's error, a 500
 * naming the URL (`Get "https://...": dial tcp ...`); a kubelet that answers (a simulated one,
 * src/sim/kubelet/logs.ts) streams its text through.
 */
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { StatusError } from '../../protocol/status.js';
import { routeMethodNotAllowed } from '../http/request-info.js';
import { rec, str } from '../kinds/access.js';
import {
  goDialError as goDialMessage,
  internalStatus,
  kubeletConnection,
  kubeletURL,
  validateContainer,
} from './kubelet-connection.js';
import { isNamed, type RequestScope } from './request-scope.js';

/** The log options passed on to the kubelet (strategy.go `LogLocation`'s params). */
const FLAGS = ['follow', 'previous', 'timestamps'] as const;
const NUMBERS = ['sinceSeconds', 'tailLines', 'limitBytes'] as const;

/** The kubelet query of a log request. */
function logParams(scope: RequestScope): [string, string][] {
  const params: [string, string][] = [];
  for (const f of FLAGS)
    if (scope.query.get(f) === 'true' || scope.query.get(f) === '1') params.push([f, 'true']);
  for (const n of NUMBERS) {
    const v = scope.query.get(n);
    if (v !== null && v !== '') params.push([n, String(Number(v))]);
  }
  const sinceTime = scope.query.get('sinceTime');
  if (sinceTime) params.push(['sinceTime', sinceTime]);
  return params;
}

/** Serves GET pods/<name>/log. */
export async function podLog(scope: RequestScope): Promise<void> {
  if (scope.method !== 'GET' || !isNamed(scope)) throw routeMethodNotAllowed();
  const pod = await scope.server.objects.get(scope.kind, scope.namespace, scope.name);
  const container = validateContainer(pod, scope.query.get('container') ?? '');
  const nodeName = str(rec(pod.spec).nodeName);
  if (nodeName === '') {
    scope.res.writeHead(204);
    scope.res.end();
    return;
  }
  const conn = await kubeletConnection(scope, nodeName);
  const location = kubeletURL(
    conn,
    `/containerLogs/${scope.namespace}/${scope.name}/${container}`,
    logParams(scope),
  );
  const answer = await getKubelet(location, scope);
  if ((answer.statusCode ?? 500) >= 300) {
    // genericrest's response checker: the kubelet's status and words.
    const chunks: Buffer[] = [];
    for await (const c of answer) chunks.push(c as Buffer);
    const code = answer.statusCode ?? 500;
    const message = Buffer.concat(chunks).toString('utf8').trim() || `the kubelet answered ${code}`;
    // NewGenericServerResponse: the kubelet's code gives the reason (its 400s: a container
    // waiting to start, no previous instance).
    if (code === 404) throw StatusError.of('NotFound', message);
    if (code === 400) throw StatusError.of('BadRequest', message);
    throw internalStatus(message);
  }
  scope.res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-cache, private' });
  answer.pipe(scope.res);
  await new Promise<void>((resolve) => {
    answer.once('end', resolve);
    answer.once('error', () => resolve());
    scope.res.once('close', () => {
      answer.destroy();
      resolve();
    });
  });
}

/** GETs the kubelet's `location` (its certificate unverified, as kube-apiserver's transport). */
function getKubelet(location: string, scope: RequestScope): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(location, { method: 'GET', rejectUnauthorized: false }, resolve);
    req.once('error', (err: NodeJS.ErrnoException) => {
      const url = new URL(location);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      reject(internalStatus(`Get "${location}": ${goDialMessage(host, url.port, err)}`));
    });
    scope.res.once('close', () => req.destroy());
    req.end();
  });
}
