/** What a well-formed answer is: a Status for every error, never an unexplained 500. */
import { parse as parseYaml } from 'yaml';
import type { FuzzAnswer, FuzzRequest } from './paths.js';
import { routed } from './requests.js';
export const STATUS_BODY_EXEMPT = new Set(['HEAD']);

/**
 * The 500s kube-apiserver itself answers: server-side apply's typing errors reach the handler as
 * plain Go errors (managedfields structuredmerge.go `Apply`), a reasonless 500 (see
 * src/server/schema/write-rules.ts).
 */
export const UPSTREAM_500 =
  /^(failed to (create typed patch object|convert new object) \(|resourceVersion: Invalid value: .*: strconv\.ParseUint: parsing )/;

/**
 * Go's `http.NotFound`, which kube-apiserver's non-go-restful mux answers for a path no web service
 * claims (k8s.io/apiserver pkg/server/handler.go director.ServeHTTP): plain text, not a Status.
 */
export const GO_NOT_FOUND = '404 page not found\n';

export interface StatusBody {
  kind?: string;
  apiVersion?: string;
  status?: string;
  code?: number;
  message?: unknown;
  reason?: unknown;
}

/**
 * An error answer's Status: YAML when the request asked for YAML (kube-apiserver writes its errors
 * in the negotiated format too), JSON otherwise; undefined when it does not parse.
 */
export function statusOf(r: FuzzRequest, a: FuzzAnswer): StatusBody | undefined {
  const yaml =
    r.headers.accept === 'application/yaml' &&
    String(a.headers['content-type']).startsWith('application/yaml');
  try {
    const parsed: unknown = yaml ? parseYaml(a.text) : JSON.parse(a.text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : undefined;
  } catch {
    return undefined;
  }
}

/** A 500 kube-apiserver answers too: a plain Go error made a Status without a reason. */
export function upstream500(a: FuzzAnswer, status: StatusBody | undefined): boolean {
  return (
    a.status === 500 &&
    status?.code === 500 &&
    (status.reason === undefined || status.reason === '') &&
    typeof status.message === 'string' &&
    UPSTREAM_500.test(status.message)
  );
}

/** Checks one answer's shape; returns a description of what is wrong, or undefined. */
export function problem(r: FuzzRequest, a: FuzzAnswer): string | undefined {
  if (!Number.isInteger(a.status) || a.status < 200 || a.status > 599) return `status ${a.status}`;
  // kube-openapi's handlers refuse an Accept they cannot serve with a bare 406, no body
  // (pkg/handler/handler.go ServeHTTP, pkg/handler3/handler.go).
  if (a.status === 406 && a.text === '' && routed(r.path).startsWith('/openapi/')) return undefined;
  if (a.status === 404 && a.text === GO_NOT_FOUND) {
    return String(a.headers['content-type']) === 'text/plain; charset=utf-8'
      ? undefined
      : `Go's 404 text served as ${a.headers['content-type']}`;
  }
  const status = a.status >= 400 ? statusOf(r, a) : undefined;
  if (a.status >= 500 && a.status !== 504 && !upstream500(a, status)) {
    return `server error ${a.status}: ${a.text.slice(0, 300)}`;
  }
  if (STATUS_BODY_EXEMPT.has(r.method)) return undefined;
  if (a.status >= 400) {
    if (status === undefined) {
      return `error ${a.status} without a JSON or YAML Status: ${JSON.stringify(a.text.slice(0, 200))}`;
    }
    if (status.kind !== 'Status' || status.apiVersion !== 'v1' || status.status !== 'Failure') {
      return `error ${a.status} body is not a Failure Status: ${a.text.slice(0, 200)}`;
    }
    if (status.code !== a.status) return `Status code ${status.code} on an HTTP ${a.status}`;
    if (typeof status.message !== 'string' || status.message === '')
      return `Status without message: ${a.text}`;
    if ((typeof status.reason !== 'string' || status.reason === '') && !upstream500(a, status)) {
      return `Status without reason: ${a.text}`;
    }
    const type = String(a.headers['content-type']);
    if (!type.startsWith('application/json') && !type.startsWith('application/yaml'))
      return `Status served as ${type}`;
    return undefined;
  }
  if (a.streamed) {
    // Only complete lines: the stream was cut on purpose.
    const lines = a.text.split('\n').slice(0, -1);
    for (const line of lines) {
      let event: { type?: unknown; object?: unknown };
      try {
        event = JSON.parse(line);
      } catch {
        return `watch line is not JSON: ${line.slice(0, 200)}`;
      }
      if (!['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'].includes(String(event.type))) {
        return `watch event type ${String(event.type)}`;
      }
      if (typeof event.object !== 'object' || event.object === null) return 'watch event without object';
    }
    return undefined;
  }
  const type = String(a.headers['content-type'] ?? '');
  if (type.includes('json')) {
    try {
      JSON.parse(a.text);
    } catch {
      return `2xx JSON answer does not parse: ${a.text.slice(0, 200)}`;
    }
  } else if (type === '') {
    return 'answer without Content-Type';
  }
  return undefined;
}
