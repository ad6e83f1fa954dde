/**
 * A tiny real HTTP server standing in for kube-apiserver where a test needs
 * to see the exact request (method, path, query, content type, body) or to
 * get an answer the server under test cannot give yet (a 409 apply
 * conflict). It records every request and answers with `answer`, by
 * default 200 with the body echoed back.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the recorder saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  contentType: string | undefined;
  userAgent: string | undefined;
  body: unknown;
}

/** What the recorder answers. */
export interface RecordedAnswer {
  status: number;
  body: unknown;
}

/** A running recorder. */
export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  /** Writes a kubeconfig reaching the recorder (no credentials, namespace `demo`). */
  writeKubeconfig(path: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * kube-apiserver's answer to an apply that conflicts on one field with a
 * manager that applied it: `errors.NewApplyConflict` (apimachinery
 * pkg/api/errors/errors.go) with the causes and message of
 * `internal.NewConflictError` (apiserver pkg/endpoints/handlers/fieldmanager/internal/conflict.go,
 * `getConflictMessage` and `printManager`: an Apply manager is printed as its
 * quoted name; an Update manager adds ` using <apiVersion>`). A StatusCause's
 * `Type` is written as `reason` (meta/v1 types.go: `json:"reason,omitempty"`).
 */
export function applyConflictStatus(manager: string, field: string, apiVersion?: string): RecordedAnswer {
  const who = apiVersion ? `"${manager}" using ${apiVersion}` : `"${manager}"`;
  return {
    status: 409,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Apply failed with 1 conflict: conflict with ${who}: ${field}`,
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: `conflict with ${who}`, field }] },
      code: 409,
    },
  };
}

/** Starts a recorder on a free local port. */
export async function startRecorder(
  answer: (req: RecordedRequest) => RecordedAnswer = (req) => ({ status: 200, body: req.body }),
): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://recorder');
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        contentType: req.headers['content-type'],
        userAgent: req.headers['user-agent'],
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(recorded);
      const { status, body } = answer(recorded);
      const out = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    async writeKubeconfig(path) {
      await writeFile(
        path,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters: [{name: recorder, cluster: {server: "' + url + '"}}]',
          'users: [{name: nobody, user: {}}]',
          'contexts: [{name: recorder, context: {cluster: recorder, user: nobody, namespace: demo}}]',
          'current-context: recorder',
          '',
        ].join('\n'),
      );
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
