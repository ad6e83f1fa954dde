/**
 * The admission webhook the corpus's admission cases configure on both servers: one HTTPS
 * server on 127.0.0.1 (a certificate from src/server/pki, its CA as `$webhookCA`, its address
 * as `$webhookURL`) whose answer is chosen by the path the configuration names, so that it
 * holds no state and both servers, called at once, get the same answers.
 *
 * An object labelled `fidelity-probe: ID` is denied with the message `probe ID` by a webhook
 * whose URL ends in `/ID` (`/echo/m0`; kube refuses query parameters in webhook URLs), on
 * every path: a case creates one after its configuration and
 * waits for that 403, because kube-apiserver loads webhook configurations from an informer, a
 * moment after they are stored (each webhook of a case has its own ID, so a probe proves that
 * its own configuration is loaded).
 *
 * Paths: `/allow`; `/deny` (no code: kube answers 400); `/deny-422` (code 422, reason
 * Invalid); `/label` (a JSONPatch adding the label `patched: "yes"`); `/echo` (a patch writing
 * what the review said into the annotation `fidelity/review`); `/echo-deny` (a denial whose
 * message is that text, for validating hooks and deletes); `/warn` (two warnings); `/bad-patch`
 * (a patch that makes the object invalid); `/malformed` (a body that is not JSON); `/status-500`;
 * `/slow` (answers after 3 s); `/wrong-uid`; `/no-response` (a review without a response).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCertificates } from '../../src/server/index.js';

export interface FidelityWebhook {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** base64 PEM of its CA, for `clientConfig.caBundle`. */
  caBundle: string;
  close(): Promise<void>;
}

interface Review {
  apiVersion: string;
  request: Record<string, any>;
}

const SLOW_MS = 3_000;

/**
 * What of a review is the case's business: what kube-apiserver and watchmark both know
 * (not the uid, the user, or times), in one line.
 */
function reviewText(r: Record<string, any>): string {
  const object = r.object as Record<string, any> | undefined;
  const summary = {
    operation: r.operation,
    kind: r.kind,
    resource: r.resource,
    subResource: r.subResource,
    requestKind: r.requestKind,
    requestResource: r.requestResource,
    requestSubResource: r.requestSubResource,
    namespace: r.namespace,
    name: r.name,
    dryRun: r.dryRun,
    options: r.options,
    object: object && {
      kind: object.kind,
      apiVersion: object.apiVersion,
      name: object.metadata?.name,
      generateName: object.metadata?.generateName,
      labels: object.metadata?.labels,
      annotations: object.metadata?.annotations,
      spec: object.spec && Object.keys(object.spec).sort(),
      data: object.data,
    },
    oldObject: r.oldObject ? { name: r.oldObject.metadata?.name, data: r.oldObject.data } : r.oldObject,
  };
  return JSON.stringify(summary);
}

function isProbe(r: Record<string, any>, probe: string | null): boolean {
  return probe !== null && r.object?.metadata?.labels?.['fidelity-probe'] === probe;
}

function jsonPatch(ops: unknown[]): { patchType: string; patch: string } {
  return { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') };
}

/** The response fields for `path`, or the raw answer a broken webhook gives. */
function answer(
  path: string,
  r: Record<string, any>,
): Record<string, unknown> | { raw: string; status: number } | 'slow' {
  const labels = r.object?.metadata?.labels;
  switch (path) {
    case '/allow':
      return { allowed: true };
    case '/deny':
      return { allowed: false, status: { message: 'denied by the fidelity webhook' } };
    case '/deny-422':
      return {
        allowed: false,
        status: { code: 422, reason: 'Invalid', message: 'the fidelity webhook finds it invalid' },
      };
    case '/label':
      return {
        allowed: true,
        ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { ...labels, patched: 'yes' } }]),
      };
    case '/echo':
      return {
        allowed: true,
        ...jsonPatch([
          {
            op: 'add',
            path: '/metadata/annotations',
            value: { ...r.object?.metadata?.annotations, 'fidelity/review': reviewText(r) },
          },
        ]),
      };
    case '/echo-deny':
      return { allowed: false, status: { message: reviewText(r) } };
    case '/warn':
      return { allowed: true, warnings: ['first fidelity warning', 'second, with a comma'] };
    case '/bad-patch':
      return {
        allowed: true,
        ...jsonPatch([{ op: 'add', path: '/metadata/labels', value: { '-bad-': 'x' } }]),
      };
    case '/unappliable-patch':
      return { allowed: true, ...jsonPatch([{ op: 'remove', path: '/nothing/here' }]) };
    case '/malformed':
      return { raw: 'this is not json', status: 200 };
    case '/status-500':
      return { raw: 'internal trouble', status: 500 };
    case '/slow':
      return 'slow';
    default:
      return { raw: `no behaviour at ${path}`, status: 404 };
  }
}

function respond(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const segments = new URL(req.url ?? '/', 'https://webhook').pathname.split('/');
  const path = `/${segments[1] ?? ''}`;
  const probe = segments[2] ?? null;
  let review: Review;
  try {
    review = JSON.parse(body.toString('utf8')) as Review;
  } catch {
    res.writeHead(400).end('not a review');
    return;
  }
  const r = review.request ?? {};
  const send = (response: Record<string, unknown> | undefined) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
  };
  if (isProbe(r, probe)) {
    send({ uid: r.uid, allowed: false, status: { message: `probe ${probe}` } });
    return;
  }
  if (path === '/wrong-uid' || path === '/no-response') {
    send(path === '/wrong-uid' ? { uid: 'not-the-request-uid', allowed: true } : undefined);
    return;
  }
  const a = answer(path, r);
  if (a === 'slow') {
    const timer = setTimeout(() => send({ uid: r.uid, allowed: true }), SLOW_MS);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  if ('raw' in a) {
    res.writeHead(a.status as number, { 'content-type': 'text/plain' }).end(a.raw);
    return;
  }
  send({ uid: r.uid, ...a });
}

/** Starts the webhook on a free loopback port. */
export async function startFidelityWebhook(): Promise<FidelityWebhook> {
  const certs = await generateServingCertificates({ hosts: ['127.0.0.1'] });
  const server: Server = createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => respond(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caBundle: Buffer.from(certs.caCertPem).toString('base64'),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
