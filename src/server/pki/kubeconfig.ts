/**
 * Writes the kubeconfig that points kubectl (or any client-go program) at a
 * running watchmark server: one cluster, one user, one context, made current.
 * The file holds credentials, so it is written owner-only like kubeadm's admin.conf.
 */

import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Options for {@link buildKubeconfig}. */
export interface KubeconfigOptions {
  /** The server URL, e.g. `https://127.0.0.1:6443`. */
  server: string;
  /** PEM of the CA that signed the serving certificate; stored as `certificate-authority-data`. */
  caPem?: string;
  /** Bearer token for the user. */
  token?: string;
  /** PEM client certificate for x509 authentication; needs {@link KubeconfigOptions.clientKeyPem}. */
  clientCertPem?: string;
  /** PEM private key of the client certificate. */
  clientKeyPem?: string;
  /** Skips server certificate verification; cannot be combined with `caPem` (kubectl rejects that). */
  insecureSkipTlsVerify?: boolean;
  /** Name of the cluster, user and context entries; `watchmark` by default. */
  name?: string;
  /** Default namespace of the context. */
  namespace?: string;
}

/** Builds kubeconfig YAML (apiVersion v1, kind Config) with one cluster, user and current context. */
export function buildKubeconfig(opts: KubeconfigOptions): string {
  const name = opts.name ?? 'watchmark';
  if (opts.server === '') throw new Error('kubeconfig: server URL is empty');
  if (opts.caPem !== undefined && opts.insecureSkipTlsVerify) {
    // kubectl refuses such a file: "specifying a root certificates file with the insecure flag is not allowed".
    throw new Error('kubeconfig: caPem and insecureSkipTlsVerify are mutually exclusive');
  }
  if ((opts.clientCertPem === undefined) !== (opts.clientKeyPem === undefined)) {
    throw new Error('kubeconfig: clientCertPem and clientKeyPem must be given together');
  }

  const cluster: Record<string, unknown> = { server: opts.server };
  if (opts.caPem !== undefined) cluster['certificate-authority-data'] = base64(opts.caPem);
  if (opts.insecureSkipTlsVerify) cluster['insecure-skip-tls-verify'] = true;

  const user: Record<string, unknown> = {};
  if (opts.clientCertPem !== undefined) user['client-certificate-data'] = base64(opts.clientCertPem);
  if (opts.clientKeyPem !== undefined) user['client-key-data'] = base64(opts.clientKeyPem);
  if (opts.token !== undefined) user.token = opts.token;

  const context: Record<string, unknown> = { cluster: name, user: name };
  if (opts.namespace !== undefined) context.namespace = opts.namespace;

  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    namedEntry(name, 'cluster', cluster),
    'users:',
    namedEntry(name, 'user', user),
    'contexts:',
    namedEntry(name, 'context', context),
    `current-context: ${scalar(name)}`,
    'preferences: {}',
    '',
  ].join('\n');
}

/*
 * The file has one fixed shape, so it is written directly rather than through
 * a YAML library: loading one was a fifth of the server's import time, paid
 * by every program that imports `watchmark/server`. Strings are plain when
 * YAML reads them back as the same string, and double-quoted (a JSON string
 * is a valid YAML double-quoted scalar) otherwise.
 */

/** One `- name: ...` list entry holding a map under `key`. */
function namedEntry(name: string, key: string, map: Record<string, unknown>): string {
  const lines = [`  - name: ${scalar(name)}`];
  const fields = Object.entries(map);
  if (fields.length === 0) lines.push(`    ${key}: {}`);
  else {
    lines.push(`    ${key}:`);
    for (const [field, value] of fields) lines.push(`      ${field}: ${scalar(value)}`);
  }
  return lines.join('\n');
}

/** A YAML scalar for a string or boolean value. */
function scalar(value: unknown): string {
  if (typeof value === 'boolean') return String(value);
  const text = String(value);
  const plain =
    /^[A-Za-z][A-Za-z0-9+/=_.:@-]*$/.test(text) &&
    !text.endsWith(':') &&
    !/^(true|false|null|yes|no|on|off|y|n)$/i.test(text);
  return plain ? text : JSON.stringify(text);
}

/**
 * Writes kubeconfig text with mode 0600, creating the parent directory (0700)
 * if needed. An existing file is narrowed to 0600 before the credentials are
 * written into it, since `open`'s mode applies only when the file is created.
 */
export async function writeKubeconfig(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const file = await open(path, 'w', 0o600);
  try {
    // Narrow before writing, so the token is never readable through an old, wider mode.
    await file.chmod(0o600);
    await file.writeFile(text, 'utf8');
  } finally {
    await file.close();
  }
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
