/**
 * A real HTTPS admission webhook for the tests: a node:https server with a certificate from
 * src/server/pki, answering each AdmissionReview with what the test says, and recording every
 * review it received (with the URL it was posted to).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { AdmissionRequest } from '../../../src/server/index.js';
import { generateServingCertificates } from '../../../src/server/pki/tls.js';

/** A webhook's answer to one review: the response fields, `hang` (never answer) or `text` (a plain-text body). */
export type WebhookBehaviour = (
  request: AdmissionRequest,
) =>
  | { allowed: boolean; status?: Record<string, unknown>; patch?: unknown[]; warnings?: string[] }
  | 'hang'
  | 'text';

/** One review the webhook received. */
export interface ReceivedReview {
  url: string;
  contentType: string | undefined;
  review: { kind: string; apiVersion: string; request: AdmissionRequest };
}

/** A running webhook server. */
export interface TestWebhook {
  /** `https://127.0.0.1:<port>` */
  readonly base: string;
  /** The CA bundle a configuration's `clientConfig.caBundle` carries (base64 PEM). */
  readonly caBundle: string;
  /** The webhook's own serving certificate (base64 PEM), as envtest puts it in `caBundle`. */
  readonly servingCertBundle: string;
  readonly received: ReceivedReview[];
  /** What it answers; replace per test. */
  behaviour: WebhookBehaviour;
  close(): Promise<void>;
}

/** Starts a webhook on 127.0.0.1 that allows everything until told otherwise. */
export async function startWebhook(): Promise<TestWebhook> {
  const certs = await generateServingCertificates({ hosts: ['127.0.0.1'] });
  const received: ReceivedReview[] = [];
  const hook: { behaviour: WebhookBehaviour } = { behaviour: () => ({ allowed: true }) };
  const server: Server = createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedReview['review'];
      received.push({ url: req.url ?? '', contentType: req.headers['content-type'], review });
      const answer = hook.behaviour(review.request);
      if (answer === 'hang') return;
      if (answer === 'text') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('this is not a review');
        return;
      }
      const { patch, ...rest } = answer;
      const response: Record<string, unknown> = { uid: review.request.uid, ...rest };
      if (patch) {
        response.patchType = 'JSONPatch';
        response.patch = Buffer.from(JSON.stringify(patch)).toString('base64');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `https://127.0.0.1:${port}`,
    caBundle: Buffer.from(certs.caCertPem).toString('base64'),
    servingCertBundle: Buffer.from(certs.certPem).toString('base64'),
    received,
    get behaviour() {
      return hook.behaviour;
    },
    set behaviour(b: WebhookBehaviour) {
      hook.behaviour = b;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
