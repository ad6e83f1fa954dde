/**
 * Credential sources that need no plugin: fixed headers (token, basic auth)
 * and token files, which are re-read because bound service account tokens
 * and many kubeconfig `tokenFile`s are rotated underneath the process.
 */

import { readFile } from 'node:fs/promises';
import type { Clock } from '../../protocol/clock.js';
import { ConfigError, unreadable } from './errors.js';
import type { CredentialSource } from './types.js';

/**
 * How long a token read from a file is used before the file is read again:
 * client-go's cached file token source uses one minute, and the kubelet
 * refreshes projected tokens well before they expire, so a minute-old token
 * is always still valid.
 */
export const TOKEN_FILE_REREAD_MS = 60_000;

/** A source whose Authorization header never changes (or that has none). */
export function staticCredentials(authorization?: string): CredentialSource {
  return {
    authorization: async () => authorization,
    clientCertificate: async () => undefined,
    invalidate: () => {},
  };
}

/** The Authorization header for HTTP basic auth, as Go's Request.SetBasicAuth builds it. */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}

/**
 * A bearer token kept in a file: read at most every {@link TOKEN_FILE_REREAD_MS},
 * and again on the first call after {@link TokenFileCredentials.invalidate}.
 */
export class TokenFileCredentials implements CredentialSource {
  private token: string | undefined;
  private readAt = 0;

  /**
   * @param path absolute path of the token file.
   * @param clock decides when the cached token is stale.
   * @param fallbackToken a kubeconfig `token` given next to `tokenFile`: client-go
   *   prefers the file but sends this token while the file cannot be read.
   */
  constructor(
    readonly path: string,
    private readonly clock: Clock,
    private readonly fallbackToken?: string,
  ) {}

  /** `Bearer <token>` from the file, re-read when stale or invalidated. */
  async authorization(): Promise<string | undefined> {
    const token = await this.current();
    return `Bearer ${token}`;
  }

  /** Token files never carry certificates. */
  async clientCertificate(): Promise<undefined> {
    return undefined;
  }

  /** Forgets the cached token: after a 401 the file has probably been rotated. */
  invalidate(): void {
    this.token = undefined;
  }

  /** Reads the file now (at load time), so a missing file fails loading as it does for kubectl. */
  async prime(): Promise<void> {
    await this.current();
  }

  private async current(): Promise<string> {
    const now = this.clock.now();
    if (this.token !== undefined && now - this.readAt < TOKEN_FILE_REREAD_MS) return this.token;
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if (this.fallbackToken !== undefined) return this.fallbackToken;
      throw unreadable('token file', this.path, err);
    }
    // Editors and `echo` add a trailing newline; client-go trims the same way.
    const token = text.trim();
    if (token === '') {
      if (this.fallbackToken !== undefined) return this.fallbackToken;
      throw new ConfigError(`token file ${this.path} is empty`);
    }
    this.token = token;
    this.readAt = now;
    return token;
  }
}

/** The parts of a user's credentials: who supplies the header, who supplies certificates. */
export interface CredentialParts {
  /** Supplies {@link CredentialSource.authorization}. */
  authorization?: CredentialSource;
  /** Supplies {@link CredentialSource.clientCertificate}. */
  certificates?: CredentialSource;
}

/** One CredentialSource over separate header and certificate suppliers; invalidate reaches both. */
export function combineCredentials(parts: CredentialParts): CredentialSource {
  const { authorization, certificates } = parts;
  return {
    authorization: async () => authorization?.authorization(),
    clientCertificate: async () => certificates?.clientCertificate(),
    invalidate: () => {
      authorization?.invalidate();
      if (certificates !== authorization) certificates?.invalidate();
    },
  };
}
