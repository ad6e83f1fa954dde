/**
 * One call of an admission webhook: an AdmissionReview v1 POSTed over HTTPS to
 * `clientConfig.url`, its path cleaned as the rest client cleans it (trusting `caBundle` alone
 * when it is set, each certificate in it an anchor, as client-go's TLS config does),
 * within `timeoutSeconds` (sent as `?timeout=Ns`, as the rest client sends it), and the
 * response checked as request/admissionreview.go `VerifyAdmissionResponse` checks it. Every
 * failure is a {@link CallingWebhookError} whose text follows the Go client's words
 * (`Post "<url>": <cause>`), for failurePolicy to judge.
 */
import { request as httpsRequest } from 'node:https';
import { CallingWebhookError } from './errors.js';
import type { AdmissionRequest, AdmissionStatus, JsonPatchOperation } from './types.js';
import type { Webhook } from './webhooks.js';

/** A verified webhook answer. */
export interface WebhookResult {
  allowed: boolean;
  status?: AdmissionStatus;
  patch?: JsonPatchOperation[];
  warnings: string[];
}

/** Where a webhook's request goes, or the failure of resolving it. */
export type ResolveService = (service: NonNullable<Webhook['clientConfig']['service']>) => Promise<string>;

/** Go's words for a failed dial or handshake, from node's error. */
function goCause(err: NodeJS.ErrnoException, host: string): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${host.replace(/:\d+$/, '')}: no such host`;
    case 'ECONNRESET':
      return 'read: connection reset by peer';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `tls: failed to verify certificate: x509: certificate is valid for other names, not ${host.replace(/:\d+$/, '')}`;
    default:
      return err.message;
  }
}

/** POSTs `body` to `url`; resolves with the status and text of the answer. */
function post(
  url: URL,
  display: string,
  body: string,
  caPem: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (reason: string) => {
      if (settled) return;
      settled = true;
      reject(new Error(`Post "${display}": ${reason}`));
    };
    const req = httpsRequest(
      url,
      {
        method: 'POST',
        // No keep-alive pool: nothing outlives the call (a test server closes cleanly).
        agent: false,
        // Go's x509 takes every certificate of the pool as a trust anchor, a serving certificate
        // included (envtest's caBundle is its webhook's own certificate); OpenSSL needs this flag.
        ...(caPem !== undefined && { ca: caPem, allowPartialTrustChain: true }),
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, */*',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (err) => fail(goCause(err, url.host)));
      },
    );
    // The call's context deadline (dispatcher.go: context.WithTimeout(timeoutSeconds)).
    const timer = setTimeout(() => {
      fail('context deadline exceeded');
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(goCause(err, url.host));
    });
    req.end(body);
  });
}

/**
 * client-go's error for a non-2xx answer (rest/request.go `transformResponse`): the Status the
 * body holds, or `newUnstructuredResponseError`'s words.
 */
function httpError(status: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as { kind?: string; message?: string };
    if (parsed?.kind === 'Status' && parsed.message) return parsed.message;
  } catch {
    // Not JSON: described below.
  }
  if (text.trim() === '')
    return `the server responded with the status code ${status} but did not return more information`;
  return `an error on the server ("${text.trim().slice(0, 1024)}") has prevented the request from succeeding`;
}

/** The Go type name encoding/json gives a JSON value in its unmarshal errors. */
function goJsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}

/**
 * A 200 answer whose body is no object: client-go's decoder reads it as YAML (a JSON superset:
 * plain text is a YAML string), then finds no apiVersion or kind in what that holds
 * (runtime/serializer/json `Decode`, whose error `Do().Into` returns as the call's).
 */
async function undecodable(text: string): Promise<Error> {
  // The YAML parser is loaded only for such an answer: importing the server does not pay for it.
  const { parse: parseYaml } = await import('yaml');
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    return new Error(`error converting YAML to JSON: ${(err as Error).message}`);
  }
  return new Error(
    `couldn't get version/kind; json parse error: json: cannot unmarshal ${goJsonType(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
  );
}

/** request/admissionreview.go `VerifyAdmissionResponse` for an admission.k8s.io/v1 review. */
async function verify(uid: string, mutating: boolean, text: string): Promise<WebhookResult> {
  let review: Record<string, unknown>;
  try {
    review = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw await undecodable(text);
  }
  if (review === null || typeof review !== 'object' || Array.isArray(review)) throw await undecodable(text);
  const invalid = (why: string) => new Error(`received invalid webhook response: ${why}`);
  const response = review.response as Record<string, unknown> | undefined;
  if (!response || typeof response !== 'object') throw invalid('webhook response was absent');
  if (response.uid !== uid)
    throw invalid(`expected response.uid="${uid}", got "${String(response.uid ?? '')}"`);
  const gvk = `${String(review.apiVersion ?? '')}, Kind=${String(review.kind ?? '')}`;
  if (review.apiVersion !== 'admission.k8s.io/v1' || review.kind !== 'AdmissionReview')
    throw invalid(`expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gvk}`);
  const patchText = typeof response.patch === 'string' ? response.patch : '';
  const patchType = typeof response.patchType === 'string' ? response.patchType : '';
  if (patchText !== '' && patchType === '')
    throw invalid('webhook returned response.patch but not response.patchType');
  if (patchText !== '' && !mutating) throw invalid('validating webhook may not return response.patch');
  if (patchType !== '' && patchType !== 'JSONPatch') throw invalid(`unsupported patch type "${patchType}"`);
  const result: WebhookResult = {
    allowed: response.allowed === true,
    warnings: Array.isArray(response.warnings) ? response.warnings.map(String) : [],
  };
  if (response.status && typeof response.status === 'object')
    result.status = response.status as AdmissionStatus;
  if (patchText !== '') {
    try {
      result.patch = JSON.parse(Buffer.from(patchText, 'base64').toString('utf8')) as JsonPatchOperation[];
    } catch (err) {
      throw new Error(`received undecodable patch in webhook response: ${(err as Error).message}`);
    }
  }
  return result;
}

/**
 * The path a webhook call goes to: util/webhook/client.go makes the configured path the rest
 * client's `APIPath`, and rest/request.go joins it (`path.Join("/", base.Path, versionedAPIPath)`),
 * so Go's path.Clean applies: `//failing` is `/failing` (envtest writes such URLs), a trailing
 * slash goes, and no path is `/`.
 */
function restClientPath(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** Calls `hook` with `request`; throws {@link CallingWebhookError} on any failure to get an answer. */
export async function callWebhook(
  hook: Webhook,
  request: AdmissionRequest,
  mutating: boolean,
  resolveService: ResolveService,
): Promise<WebhookResult> {
  const cc = hook.clientConfig;
  let url: URL;
  // The URL as Go prints it in errors: as configured (an explicit :443 kept), with the timeout.
  let display: string;
  try {
    if (cc.url !== undefined) {
      const parts = /^([^:/?#]+:\/\/[^/?#]*)([^?#]*)$/.exec(cc.url);
      display = parts ? `${parts[1]}${restClientPath(parts[2])}` : cc.url;
    } else {
      const s = cc.service!;
      // util/webhook/client.go `HookClient`: https://<name>.<namespace>.svc:<port><path>, the host
      // resolved when dialing.
      display = `https://${s.name}.${s.namespace}.svc:${s.port}${restClientPath(s.path ?? '')}`;
    }
    display += `?timeout=${hook.timeoutSeconds}s`;
    url = new URL(display);
  } catch (err) {
    throw new CallingWebhookError(hook.name, `could not get REST client: ${(err as Error).message}`);
  }
  const body = JSON.stringify({ kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request });
  try {
    if (cc.service) {
      // Resolved at dial time: a missing Service fails the call like a failed dial.
      try {
        await resolveService(cc.service);
      } catch (err) {
        throw new Error(`Post "${display}": ${(err as Error).message}`);
      }
    }
    const answer = await post(url, display, body, cc.caPem, hook.timeoutSeconds * 1000);
    if (answer.status < 200 || answer.status > 299) throw new Error(httpError(answer.status, answer.text));
    return await verify(request.uid, mutating, answer.text);
  } catch (err) {
    const message = (err as Error).message;
    const reason = message.startsWith('received ') ? message : `failed to call webhook: ${message}`;
    throw new CallingWebhookError(hook.name, reason);
  }
}
