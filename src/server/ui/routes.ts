import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { packageFile } from '../../protocol/package-files.js';
import { failureStatus, StatusError } from '../../protocol/status.js';
import { readBody, sendJson } from '../http/http-io.js';
import { loginPage } from './login-page.js';
import { sessionCookie, UiSessions } from './session.js';
import type { UiStream } from './stream.js';

/** The page's files, under src/server/ui/static (`npm run build` copies them into dist/). */
const ASSETS: Record<string, { file: string; type: string }> = {
  '/ui': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/ui/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/ui/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** No script, style, connection or frame from anywhere else: the page works offline and cannot be framed. */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

/** The header the page's buttons send: a cross-site form cannot set it, so it cannot fire a fault injection. */
export const ACTION_HEADER = 'x-watchmark-ui';

/** What the UI routes need from the server. */
export interface UiRoutesOptions {
  stream: UiStream;
  /** True with `--insecure-no-auth`: the page is as open as the API. */
  open: boolean;
  /** True over HTTPS: the session cookie is `Secure`. */
  secure: boolean;
  /** Whether the request carries valid API credentials (bearer token, client certificate). */
  authenticate(req: IncomingMessage): boolean;
  /** Whether `token` is a valid bearer token (the login form). */
  authenticateToken(token: string): boolean;
  compact(): Promise<number>;
  dropWatches(): number;
  /** Counts response bytes in the server's stats. */
  countBytes(bytes: number): void;
}

/**
 * The `/ui` routes: the page, its stream and its buttons, all behind the
 * API's authentication (a session cookie from a one-time login link or the
 * token form, or the API's own credentials). Only `/ui/login` answers an
 * anonymous request, and it holds no data.
 */
export class UiRoutes {
  private readonly sessions = new UiSessions();
  private readonly opts: UiRoutesOptions;
  private readonly assets = new Map<string, Buffer>();

  constructor(opts: UiRoutesOptions) {
    this.opts = opts;
  }

  /** A link that opens the page once: `/ui/login?code=...` (just `/ui` when auth is off). */
  loginUrl(baseUrl: string): string {
    if (this.opts.open) return `${baseUrl}/ui`;
    return `${baseUrl}/ui/login?code=${this.sessions.newCode()}`;
  }

  /** Answers a request under /ui (`path` without trailing slash). */
  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    if (path === '/ui/login') return this.login(req, res, method, query);
    const allowed = this.opts.open || this.sessions.has(req) || this.opts.authenticate(req);
    if (!allowed) {
      if (path === '/ui')
        return this.sendLogin(res, 401, 'Open the login link printed by watchmark, or enter the API token.');
      throw new StatusError(failureStatus('Unauthorized', 'Unauthorized'));
    }
    if (path === '/ui/events') {
      if (method !== 'GET') throw StatusError.of('MethodNotAllowed', 'the event stream answers GET');
      this.opts.stream.open(res);
      return;
    }
    if (path === '/ui/actions/compact' || path === '/ui/actions/drop-watches') {
      if (method !== 'POST') throw StatusError.of('MethodNotAllowed', `${path} answers POST`);
      if (req.headers[ACTION_HEADER] !== '1') {
        throw StatusError.of(
          'Forbidden',
          `fault injections from the page need the ${ACTION_HEADER} header`,
          {},
        );
      }
      if (path === '/ui/actions/compact') {
        const compactedRevision = await this.opts.compact();
        return this.json(res, 200, { compactedRevision });
      }
      // Answer first, then cut the streams.
      const droppedWatches = this.opts.dropWatches();
      return this.json(res, 200, { droppedWatches });
    }
    const asset = ASSETS[path];
    if (!asset) throw StatusError.of('NotFound', `no such page: ${path}`, {});
    if (method !== 'GET' && method !== 'HEAD')
      throw StatusError.of('MethodNotAllowed', `${path} answers GET`);
    const body = this.asset(asset.file);
    res.writeHead(200, { 'Content-Type': asset.type, 'Content-Length': body.length, ...SECURITY_HEADERS });
    res.end(method === 'HEAD' ? undefined : body);
    this.opts.countBytes(body.length);
  }

  /** GET with a code spends it; POST takes the token form; either opens a session and goes to the page. */
  private async login(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    query: URLSearchParams,
  ): Promise<void> {
    if (this.opts.open) return this.redirect(res, '/ui');
    if (method === 'GET') {
      const code = query.get('code');
      // 401 like every other anonymous /ui answer: the form is the way in, not content.
      if (code === null) return this.sendLogin(res, 401, 'Enter the API token (the kubeconfig holds it).');
      if (!this.sessions.redeem(code)) {
        return this.sendLogin(
          res,
          401,
          'That login link was already used or is unknown: enter the API token.',
        );
      }
      return this.startSession(res);
    }
    if (method !== 'POST') throw StatusError.of('MethodNotAllowed', '/ui/login answers GET and POST');
    const form = new URLSearchParams((await readBody(req, 16 * 1024)).toString('utf8'));
    const token = form.get('token')?.trim() ?? '';
    if (token === '' || !this.opts.authenticateToken(token)) {
      return this.sendLogin(res, 401, 'That token is not valid.');
    }
    return this.startSession(res);
  }

  private startSession(res: ServerResponse): void {
    res.writeHead(303, {
      Location: '/ui',
      'Set-Cookie': sessionCookie(this.sessions.open(), this.opts.secure),
      ...SECURITY_HEADERS,
    });
    res.end();
  }

  private redirect(res: ServerResponse, location: string): void {
    res.writeHead(303, { Location: location, ...SECURITY_HEADERS });
    res.end();
  }

  private sendLogin(res: ServerResponse, code: number, message: string): void {
    const body = Buffer.from(loginPage(message));
    res.writeHead(code, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': body.length,
      ...SECURITY_HEADERS,
    });
    res.end(body);
    this.opts.countBytes(body.length);
  }

  private json(res: ServerResponse, code: number, body: unknown): void {
    this.opts.countBytes(sendJson(res, code, body));
  }

  private asset(file: string): Buffer {
    let body = this.assets.get(file);
    if (!body) {
      body = readFileSync(packageFile(`server/ui/static/${file}`));
      this.assets.set(file, body);
    }
    return body;
  }
}
