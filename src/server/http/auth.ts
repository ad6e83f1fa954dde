/**
 * Request authentication the way kube-apiserver does it: static bearer tokens
 * (`--token-auth-file`) and x509 client certificates (`--client-ca-file`).
 * A request that presents either credential successfully is authenticated;
 * otherwise the caller answers 401 with an `Unauthorized` Status.
 *
 * Secrets discipline: a token never appears in an error message or log line,
 * and tokens are compared through SHA-256 digests with `timingSafeEqual`, so
 * neither the length nor the prefix of a stored token leaks through timing.
 */

import { createHash, randomBytes, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ServerOptions } from 'node:https';
import { type DetailedPeerCertificate, TLSSocket } from 'node:tls';

/** Who made a request: kube-apiserver's `user.Info`. */
export interface UserInfo {
  /** The user name, e.g. `admin` or a certificate's CN. */
  name: string;
  /** A stable id, when the credential source provides one. */
  uid?: string;
  /** Group memberships; authenticated users also get `system:authenticated`. */
  groups: string[];
  /** Further attributes (a service-account token's `authentication.kubernetes.io/credential-id`). */
  extra?: Record<string, string[]>;
}

/**
 * A bearer-token authenticator beside the static tokens (the service-account tokens'): the user
 * and audiences of a token it takes, an error for one it refuses, undefined for one not its own.
 */
export type BearerTokenAuthenticator = (
  token: string,
  audiences: string[] | undefined,
) => Promise<{ user?: UserInfo; audiences?: string[]; error?: string } | undefined>;

/** Options for {@link Authenticator}. */
export interface AuthenticatorOptions {
  /** Bearer token -> user, as read by {@link parseTokenFile}. */
  tokens: Map<string, UserInfo>;
  /** PEM bundle of CAs that sign client certificates; x509 authentication is off without it. */
  clientCA?: string;
  /** Authenticates every request as `system:anonymous` (for local development only). */
  disabled?: boolean;
  /** Further bearer tokens (service-account tokens), tried after the static ones. */
  bearerTokens?: BearerTokenAuthenticator;
}

/** A bad line in a static token file. The message names file and line, never the token. */
export class TokenFileError extends Error {
  override name = 'TokenFileError';
  constructor(
    /** The token file's name as given on the command line. */
    readonly fileName: string,
    /** 1-based line number of the offending record. */
    readonly line: number,
    problem: string,
  ) {
    super(`token file ${fileName}, line ${line}: ${problem}`);
  }
}

/** The group kube-apiserver adds to every authenticated user, so RBAC can grant "anyone logged in". */
const AUTHENTICATED_GROUP = 'system:authenticated';

/** The identity of every request while authentication is disabled, as kube-apiserver's anonymous auth. */
const ANONYMOUS_NAME = 'system:anonymous';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';

/**
 * Parses kube-apiserver's static token file: CSV records `token,user,uid[,"group1,group2"]`.
 * Blank lines and lines starting with `#` are skipped. Throws {@link TokenFileError}
 * on a record with fewer than 3 columns, an empty token or user, or a duplicate token.
 */
export function parseTokenFile(text: string, fileName: string): Map<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  const firstLine = new Map<string, number>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const lineNo = index + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const fields = splitCsvRecord(line, (problem) => new TokenFileError(fileName, lineNo, problem));
    if (fields.length < 3) {
      throw new TokenFileError(
        fileName,
        lineNo,
        `expected at least 3 columns (token,user,uid[,groups]), found ${fields.length}`,
      );
    }
    const [token, name, uid, groupList] = fields;
    if (token === '') throw new TokenFileError(fileName, lineNo, 'empty token');
    if (name === '') throw new TokenFileError(fileName, lineNo, 'empty user name');
    const earlier = firstLine.get(token);
    if (earlier !== undefined) {
      // kube-apiserver only warns and keeps the last one; a silent override hides a copy-paste mistake.
      throw new TokenFileError(fileName, lineNo, `duplicate token (first defined on line ${earlier})`);
    }
    firstLine.set(token, lineNo);
    const groups = (groupList ?? '')
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== '');
    users.set(token, uid === '' ? { name, groups } : { name, uid, groups });
  });
  return users;
}

/**
 * Splits one CSV record (RFC 4180 quoting, `""` for a quote inside a quoted
 * field). Fields are trimmed, like Go's csv reader with TrimLeadingSpace plus
 * kube-apiserver's own trimming of header tokens. Errors never echo the text.
 */
function splitCsvRecord(line: string, error: (problem: string) => Error): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    let value = '';
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw error(`unterminated quoted field in column ${fields.length + 1}`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      while (line[i] === ' ' || line[i] === '\t') i++;
      if (i < line.length && line[i] !== ',') {
        throw error(`unexpected text after closing quote in column ${fields.length + 1}`);
      }
    } else {
      const end = line.indexOf(',', i);
      value = line.slice(i, end === -1 ? line.length : end);
      if (value.includes('"')) throw error(`bare " in unquoted column ${fields.length + 1}`);
      i = end === -1 ? line.length : end;
    }
    fields.push(value.trim());
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/** A new random bearer token: 32 bytes (256 bits) of entropy, base64url, safe in CSV, URLs and headers. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The `https.createServer` options that let {@link Authenticator} see client
 * certificates. `rejectUnauthorized: false` keeps a missing or untrusted client
 * cert from failing the handshake: such a client may still hold a valid token,
 * and kube-apiserver likewise decides per request. Without a CA, no certificate
 * is requested at all (node would otherwise judge it against the public roots).
 */
export function tlsClientAuthOptions(
  clientCA?: string,
): Pick<ServerOptions, 'requestCert' | 'rejectUnauthorized' | 'ca'> {
  if (clientCA === undefined) return { requestCert: false };
  return { requestCert: true, rejectUnauthorized: false, ca: clientCA };
}

/**
 * The authenticator of a server that authenticates: the users of its token file (`--token-file`),
 * its client CAs, and an admin (`system:masters`) whose token, given or generated, goes into the
 * kubeconfig the server writes.
 */
export function serverAuthenticator(opts: {
  tokenFile?: { text: string; name: string };
  token?: string;
  clientCA?: string;
  bearerTokens?: BearerTokenAuthenticator;
}): { authenticator: Authenticator; token: string } {
  const tokens = opts.tokenFile
    ? parseTokenFile(opts.tokenFile.text, opts.tokenFile.name)
    : new Map<string, UserInfo>();
  const token = opts.token ?? generateToken();
  tokens.set(token, { name: 'watchmark-admin', groups: ['system:masters'] });
  return {
    authenticator: new Authenticator({ tokens, clientCA: opts.clientCA, bearerTokens: opts.bearerTokens }),
    token,
  };
}

/** Decides who made a request, from its bearer token or its TLS client certificate. */
export class Authenticator {
  private readonly disabled: boolean;
  private readonly tokenDigests: { digest: Buffer; user: UserInfo }[];
  private readonly clientCAs: X509Certificate[];
  private readonly bearerTokens: BearerTokenAuthenticator | undefined;
  /** The peer certificate cannot change within a TLS connection, so each socket is judged once. */
  private readonly certUsers = new WeakMap<TLSSocket, UserInfo | null>();

  /** Throws when `clientCA` is given but holds no parsable certificate. */
  constructor(opts: AuthenticatorOptions) {
    this.disabled = opts.disabled ?? false;
    this.tokenDigests = [...opts.tokens].map(([token, user]) => ({ digest: sha256(token), user }));
    this.clientCAs = opts.clientCA === undefined ? [] : parseCertificateBundle(opts.clientCA);
    this.bearerTokens = opts.bearerTokens;
  }

  /**
   * The request's user with every authenticator, the service-account tokens' included (for the
   * API audiences), or undefined (answer 401).
   */
  async authenticateRequest(req: IncomingMessage): Promise<UserInfo | undefined> {
    const user = this.authenticate(req);
    if (user || this.disabled || !this.bearerTokens) return user;
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return undefined;
    const result = await this.bearerTokens(token, undefined);
    return result?.user && withAuthenticatedGroup(result.user);
  }

  /**
   * A TokenReview's run of the bearer-token authenticators (the static tokens take any audience):
   * the user and the audiences it holds for, or the error of the one that refused it.
   */
  async reviewToken(
    token: string,
    audiences: string[],
  ): Promise<{ user?: UserInfo; audiences?: string[]; error?: string }> {
    const user = this.fromToken(token);
    if (user) return { user: withAuthenticatedGroup(user), audiences };
    const result = await this.bearerTokens?.(token, audiences);
    if (!result) return {};
    return result.user ? { user: withAuthenticatedGroup(result.user), audiences: result.audiences } : result;
  }

  /** The request's user, or undefined when it presented no valid credential (answer 401). */
  authenticate(req: IncomingMessage): UserInfo | undefined {
    if (this.disabled) return { name: ANONYMOUS_NAME, groups: [UNAUTHENTICATED_GROUP] };
    // kube-apiserver runs its authenticators as a union: any one succeeding wins,
    // so a bad token next to a good client certificate still authenticates.
    const user = this.fromBearerToken(req) ?? this.fromClientCertificate(req);
    return user && withAuthenticatedGroup(user);
  }

  /** The user of a bearer `token` (as typed into the UI's login form), or undefined. */
  authenticateToken(token: string): UserInfo | undefined {
    if (this.disabled) return { name: ANONYMOUS_NAME, groups: [UNAUTHENTICATED_GROUP] };
    return this.fromToken(token);
  }

  private fromBearerToken(req: IncomingMessage): UserInfo | undefined {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return undefined;
    return this.fromToken(token);
  }

  private fromToken(token: string): UserInfo | undefined {
    const presented = sha256(token);
    let match: UserInfo | undefined;
    // No early exit: the time taken must not reveal which entry (if any) matched.
    for (const { digest, user } of this.tokenDigests) {
      if (timingSafeEqual(presented, digest)) match = user;
    }
    return match;
  }

  private fromClientCertificate(req: IncomingMessage): UserInfo | undefined {
    const socket = req.socket;
    if (this.clientCAs.length === 0 || !(socket instanceof TLSSocket)) return undefined;
    let user = this.certUsers.get(socket);
    if (user === undefined) {
      user = this.verifyPeer(socket) ?? null;
      this.certUsers.set(socket, user);
    }
    return user ?? undefined;
  }

  /** The x509 authenticator: a verified chain anchored in our client CAs, clientAuth usage, CN -> user, O -> groups. */
  private verifyPeer(socket: TLSSocket): UserInfo | undefined {
    if (socket.authorized !== true) return undefined;
    const peer = socket.getPeerCertificate(true);
    if (!peer?.raw) return undefined;
    // `authorized` only says the chain reached *some* CA node trusts; insist it is one of ours.
    if (!this.anchoredInClientCA(peer)) return undefined;
    const leaf = new X509Certificate(peer.raw);
    const usages = leaf.keyUsage; // node names the extended key usage list this way
    if (usages && !usages.includes(CLIENT_AUTH_OID)) return undefined;
    const name = attributeValues(peer.subject?.CN)[0];
    if (!name) return undefined;
    return { name, groups: attributeValues(peer.subject?.O) };
  }

  private anchoredInClientCA(peer: DetailedPeerCertificate): boolean {
    const seen = new Set<DetailedPeerCertificate>();
    for (
      let cert: DetailedPeerCertificate | undefined = peer;
      cert && !seen.has(cert);
      cert = cert.issuerCertificate
    ) {
      seen.add(cert);
      const candidate = new X509Certificate(cert.raw);
      for (const ca of this.clientCAs) {
        if (candidate.fingerprint256 === ca.fingerprint256) return true;
        if (candidate.checkIssued(ca) && candidate.verify(ca.publicKey)) return true;
      }
    }
    return false;
  }
}

const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';

/** Parses `Authorization: Bearer <token>` as kube-apiserver does: scheme case-insensitive, token the second word. */
function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
  return parts[1] === '' ? undefined : parts[1];
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  const groups = user.groups.includes(AUTHENTICATED_GROUP)
    ? user.groups
    : [...user.groups, AUTHENTICATED_GROUP];
  return { ...user, groups };
}

/** Node reports a repeated subject attribute (several O=) as an array, a single one as a string. */
function attributeValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== '');
}

function parseCertificateBundle(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('client CA bundle contains no PEM certificate');
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new Error(`client CA bundle: certificate ${i + 1} is not valid: ${(err as Error).message}`);
    }
  });
}
