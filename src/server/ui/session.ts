import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The cookie that carries a page's session. */
export const SESSION_COOKIE = 'watchmark_ui';

/** Sessions kept at most; the oldest is forgotten first (each browser needs one). */
const MAX_SESSIONS = 256;

/**
 * The UI's door: single-use login codes (printed in a link by `serve` and
 * `demo`) and the sessions they open. A session id lives only in an
 * HttpOnly, SameSite=Strict cookie scoped to /ui, so a page holds no
 * credential that script could read, and another site cannot ride it.
 */
export class UiSessions {
  private readonly codes = new Set<string>();
  /** SHA-256 digests of session ids (a dump of memory does not reveal usable cookies). */
  private readonly sessions = new Map<string, true>();

  /** A new single-use login code. */
  newCode(): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.add(code);
    return code;
  }

  /** Spends `code`; true when it was valid (a code works once). */
  redeem(code: string): boolean {
    return this.codes.delete(code);
  }

  /** Opens a session; returns its id for the cookie. */
  open(): string {
    const id = randomBytes(32).toString('base64url');
    this.sessions.set(digest(id), true);
    if (this.sessions.size > MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest !== undefined) this.sessions.delete(oldest);
    }
    return id;
  }

  /** Whether the request carries the cookie of an open session. */
  has(req: IncomingMessage): boolean {
    const id = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (id === undefined) return false;
    // Looked up by digest: how long the lookup takes says nothing about the ids held.
    return this.sessions.has(digest(id));
  }
}

/** The Set-Cookie header value of session `id`. `secure` over HTTPS (always, unless --insecure-http). */
export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/ui; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/** Reads cookie `name` from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
