/** What the authentication suites share: a test API server behind an Authenticator, and the kubectl gate. */
import { execFile } from 'node:child_process';
import type { createServer as createHttpServer, IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { failureStatus } from '../../../src/protocol/status.js';
import type { Authenticator } from '../../../src/server/http/auth.js';
import { findKubectls, requireTool } from '../../helpers/tools.js';

export const execFileAsync = promisify(execFile);

export const VERSION = { major: '1', minor: '33', gitVersion: 'v1.33.1' };
export const UNAUTHORIZED_BODY =
  '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}';

export const kubectls = await findKubectls();
export const kubectl133 = kubectls.find((k) => k.name === 'kubectl.1.33');
export const haveKubectl = requireTool('kubectl.1.33', kubectl133 !== undefined);

/** The test API server: 401 Status unless authenticated, then /version or an echo of the user. */
export function handler(authenticator: Authenticator) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const user = authenticator.authenticate(req);
    res.setHeader('Content-Type', 'application/json');
    if (!user) {
      res.writeHead(401).end(JSON.stringify(failureStatus('Unauthorized', 'Unauthorized')));
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/version') res.end(JSON.stringify(VERSION));
    else res.end(JSON.stringify(user));
  };
}

export async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export async function close(server: Server | ReturnType<typeof createHttpServer>): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
}

export interface Answer {
  status: number;
  body: string;
}
