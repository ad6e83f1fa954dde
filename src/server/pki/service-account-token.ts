/**
 * Service-account tokens: the signed, audience-bound JWTs kube-apiserver issues through the
 * TokenRequest API and accepts as bearer tokens (pkg/serviceaccount/jwt.go `JWTTokenGenerator`,
 * `JWTTokenAuthenticator`; claims.go). The key is an RSA key made on first use, as
 * kube-apiserver with an RSA `--service-account-signing-key-file` signs: RS256, its key id the
 * unpadded base64url SHA-256 of the public key's DER (jwt.go `keyIDFromPublicKey`). Only
 * node:crypto is used.
 */
import { createHash, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';

/** The issuer kube-apiserver is most often started with (kubeadm, kind). */
export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** A token's claims, as the JSON payload holds them. */
export type TokenClaims = Record<string, unknown>;

/** Why a token was refused, or its claims. */
export type TokenCheck =
  | { ok: true; claims: TokenClaims }
  /** `ours: false`: not a JWT of this issuer, for another authenticator to judge. */
  | { ok: false; ours: boolean; error?: string };

interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
}

/** Signs and checks the server's service-account tokens; the key pair is made on first use. */
export class ServiceAccountTokenIssuer {
  private key: SigningKey | undefined;

  constructor(
    /** The `iss` claim and the discovery document's issuer (`--service-account-issuer`). */
    readonly issuer: string = DEFAULT_ISSUER,
  ) {}

  /** A signed token of `claims` (keys written sorted, as go-jose writes the claims it merges). */
  sign(claims: TokenClaims): string {
    const { privateKey, keyId } = this.signingKey();
    const header = encodeSegment({ alg: 'RS256', kid: keyId });
    const payload = encodeSegment(sorted(claims));
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey);
    return `${header}.${payload}.${signature.toString('base64url')}`;
  }

  /**
   * Checks a bearer token's form, issuer, signature and times (jwt.go `AuthenticateToken` and
   * claims.go `Validate`): a token that is no JWT of this issuer is not ours.
   */
  check(token: string, now: number): TokenCheck {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, ours: false };
    let header: Record<string, unknown>;
    let claims: TokenClaims;
    try {
      header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, ours: false };
    }
    if (typeof claims !== 'object' || claims === null || claims.iss !== this.issuer)
      return { ok: false, ours: false };
    const { publicKey } = this.signingKey();
    const good =
      header.alg === 'RS256' &&
      verify(
        'sha256',
        Buffer.from(`${parts[0]}.${parts[1]}`),
        publicKey,
        Buffer.from(parts[2]!, 'base64url'),
      );
    if (!good)
      return {
        ok: false,
        ours: true,
        error: 'invalid bearer token, square/go-jose: error in cryptographic primitive',
      };
    const seconds = Math.floor(now / 1000);
    // claims.go `Validate`: a minute of leeway either way, as jwt.Expected's default.
    if (typeof claims.exp === 'number' && seconds > claims.exp + 60) {
      return { ok: false, ours: true, error: 'service account token has expired' };
    }
    if (typeof claims.nbf === 'number' && seconds < claims.nbf - 60) {
      return { ok: false, ours: true, error: 'service account token is not valid yet' };
    }
    return { ok: true, claims };
  }

  /** The key set served at `/openid/v1/jwks` (the OIDC discovery handler's `jwks`). */
  jwks(): { keys: Array<Record<string, string>> } {
    const { publicKey, keyId } = this.signingKey();
    const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
    return { keys: [{ use: 'sig', kty: 'RSA', kid: keyId, alg: 'RS256', n: jwk.n, e: jwk.e }] };
  }

  /** `/.well-known/openid-configuration`, its keys at `jwksUri` (pkg/serviceaccount/openidmetadata.go). */
  openidConfiguration(jwksUri: string): Record<string, unknown> {
    return {
      issuer: this.issuer,
      jwks_uri: jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    };
  }

  private signingKey(): SigningKey {
    if (!this.key) {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      this.key = { privateKey, publicKey, keyId: keyIdOf(publicKey) };
    }
    return this.key;
  }
}

/** jwt.go `keyIDFromPublicKey`: the unpadded base64url SHA-256 of the key's PKIX DER. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

function encodeSegment(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** `value` with every object's keys sorted (encoding/json writes a map's keys sorted). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}
