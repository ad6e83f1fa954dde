/**
 * Parsing one kubeconfig file into typed entries, the way client-go's loader
 * reads it: YAML 1.1 scalars (go-yaml v2 underneath sigs.k8s.io/yaml, so
 * `yes` is a boolean), a string field given a number is an error rather than a
 * silent conversion, a name repeated within one list is an error, and relative
 * paths resolve against the directory of the file that holds them.
 *
 * `yaml` is imported lazily: loading the client library must stay cheap, and
 * most processes read a kubeconfig once at start, if at all.
 */

import { dirname, isAbsolute, resolve, sep } from 'node:path';
import { ConfigError } from './errors.js';

/** A cluster entry; `certificateAuthority` is absolute. Empty strings count as unset, as in client-go. */
export interface KubeconfigCluster {
  /** `server`. */
  server?: string;
  /** `certificate-authority`, absolute. */
  certificateAuthority?: string;
  /** `certificate-authority-data`, still base64. */
  certificateAuthorityData?: string;
  /** `insecure-skip-tls-verify`. */
  insecureSkipTlsVerify: boolean;
  /** `tls-server-name`. */
  tlsServerName?: string;
  /** `proxy-url`. */
  proxyUrl?: string;
  /** `disable-compression`; only passed on to exec plugins that ask for cluster info. */
  disableCompression: boolean;
  /** `extensions` entry `client.authentication.k8s.io/exec`: per-cluster exec plugin config (spec.cluster.config). */
  execExtension?: unknown;
  /** `extensions` entry `watchmark.io/servers` (`servers: [url, ...]`): every API server of an HA cluster. */
  servers?: string[];
}

/** One `env` item of an exec plugin. */
export interface ExecEnvVar {
  /** Variable name. */
  name: string;
  /** Variable value (may be secret: never put it in a message). */
  value: string;
}

/** A user's `exec` block; `command` is absolute when it was given with a slash. */
export interface ExecConfig {
  /** `apiVersion` of the ExecCredential exchanged with the plugin. */
  apiVersion?: string;
  /** The program to run. */
  command: string;
  /** `args`. */
  args: string[];
  /** `env`, added to the caller's environment. */
  env: ExecEnvVar[];
  /** `interactiveMode`: Never, IfAvailable or Always (required for v1). */
  interactiveMode?: string;
  /** `provideClusterInfo`: pass the cluster in KUBERNETES_EXEC_INFO. */
  provideClusterInfo: boolean;
  /** `installHint`, shown when the command is missing. */
  installHint?: string;
}

/** A user entry; file fields are absolute. */
export interface KubeconfigUser {
  /** `token`. */
  token?: string;
  /** `tokenFile`, absolute. */
  tokenFile?: string;
  /** `client-certificate`, absolute. */
  clientCertificate?: string;
  /** `client-certificate-data`, still base64. */
  clientCertificateData?: string;
  /** `client-key`, absolute. */
  clientKey?: string;
  /** `client-key-data`, still base64. */
  clientKeyData?: string;
  /** `username` for basic auth. */
  username?: string;
  /** `password` for basic auth. */
  password?: string;
  /** `exec` plugin. */
  exec?: ExecConfig;
  /** `auth-provider.name`, kept only to refuse it clearly. */
  authProvider?: string;
}

/** A context entry. */
export interface KubeconfigContext {
  /** Name of the cluster entry. */
  cluster?: string;
  /** Name of the user entry. */
  user?: string;
  /** Default namespace. */
  namespace?: string;
}

/** One parsed file. */
export interface KubeconfigFile {
  /** Absolute path it was read from. */
  path: string;
  /** Cluster entries by name. */
  clusters: Map<string, KubeconfigCluster>;
  /** User entries by name. */
  users: Map<string, KubeconfigUser>;
  /** Context entries by name. */
  contexts: Map<string, KubeconfigContext>;
  /** `current-context`, undefined when absent or empty. */
  currentContext?: string;
}

const EXEC_EXTENSION = 'client.authentication.k8s.io/exec';
/** Several API servers over one etcd: kubectl ignores the extension and uses `server`. */
export const SERVERS_EXTENSION = 'watchmark.io/servers';

type YamlMap = Record<string, unknown>;

/** Typed access to the decoded YAML, with error messages that name the field but never its value. */
class FieldReader {
  constructor(readonly file: string) {}

  fail(where: string, problem: string): ConfigError {
    return new ConfigError(`kubeconfig ${this.file}: ${where} ${problem}`);
  }

  /** A mapping, or undefined for absent/null (Go decodes null into the zero value). */
  map(value: unknown, where: string): YamlMap | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) throw this.fail(where, 'must be a mapping');
    return value as YamlMap;
  }

  list(value: unknown, where: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw this.fail(where, 'must be a list');
    return value;
  }

  /** A string field; empty means unset, as client-go's `len(x) == 0` checks treat it. */
  str(obj: YamlMap, key: string, where: string): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') throw this.fail(`${where}.${key}`, 'must be a string');
    return value === '' ? undefined : value;
  }

  bool(obj: YamlMap, key: string, where: string): boolean {
    const value = obj[key];
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') throw this.fail(`${where}.${key}`, 'must be a boolean');
    return value;
  }

  /**
   * A `*-data` field: base64 as Go's encoding/json decodes []byte (standard
   * alphabet, padded, line breaks ignored). Checked at parse time because
   * kubectl refuses the whole file when any entry's data is malformed.
   */
  base64(obj: YamlMap, key: string, where: string): string | undefined {
    const value = this.str(obj, key, where)?.replace(/[\r\n]/g, '');
    if (value === undefined || value === '') return undefined;
    if (value.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
      throw this.fail(`${where}.${key}`, 'is not valid base64');
    }
    return value;
  }

  /** A path field made absolute against the kubeconfig's own directory. */
  pathField(obj: YamlMap, key: string, where: string): string | undefined {
    const value = this.str(obj, key, where);
    return value === undefined ? undefined : resolveAgainst(this.file, value);
  }

  /**
   * A named list (`clusters`, `users`, `contexts`) as a map. client-go refuses a
   * name that appears twice in one file instead of picking one.
   */
  named<T>(
    root: YamlMap,
    key: string,
    inner: string,
    build: (body: YamlMap, where: string) => T,
  ): Map<string, T> {
    const out = new Map<string, T>();
    this.list(root[key], key).forEach((item, i) => {
      const entry = this.map(item, `${key}[${i}]`) ?? {};
      const name = entry.name ?? '';
      if (typeof name !== 'string') throw this.fail(`${key}[${i}].name`, 'must be a string');
      if (out.has(name)) throw this.fail(key, `has the name "${name}" twice`);
      const where = `${key}["${name}"].${inner}`;
      out.set(name, build(this.map(entry[inner], where) ?? {}, where));
    });
    return out;
  }
}

/** Resolves `value` against the directory of the kubeconfig at `file`, unless already absolute. */
function resolveAgainst(file: string, value: string): string {
  return isAbsolute(value) ? value : resolve(dirname(file), value);
}

/**
 * Parses kubeconfig text read from `path`. An empty file is an empty config,
 * as in client-go. YAML errors report only a code and a position: the
 * library's own messages quote the offending line, which may hold a token.
 */
export async function parseKubeconfig(text: string, path: string): Promise<KubeconfigFile> {
  const fields = new FieldReader(path);
  const root = fields.map(await decodeYaml(text, path), 'the document') ?? {};
  const file: KubeconfigFile = {
    path,
    clusters: fields.named(root, 'clusters', 'cluster', (body, where) => readCluster(fields, body, where)),
    users: fields.named(root, 'users', 'user', (body, where) => readUser(fields, body, where)),
    contexts: fields.named(root, 'contexts', 'context', (body, where) => ({
      cluster: fields.str(body, 'cluster', where),
      user: fields.str(body, 'user', where),
      namespace: fields.str(body, 'namespace', where),
    })),
  };
  const current = fields.str(root, 'current-context', 'the document');
  if (current !== undefined) file.currentContext = current;
  return file;
}

async function decodeYaml(text: string, path: string): Promise<unknown> {
  const { parseDocument } = await import('yaml');
  const doc = parseDocument(text, {
    version: '1.1',
    merge: true,
    uniqueKeys: true,
    // go-yaml keeps `2024-01-02` a string when the target field is a string; only
    // the YAML 1.1 timestamp tag would turn it into a Date here.
    customTags: (tags) =>
      tags.filter((tag) => typeof tag === 'string' || tag.tag !== 'tag:yaml.org,2002:timestamp'),
  });
  const problem = doc.errors[0];
  if (problem !== undefined) {
    const at = problem.linePos?.[0];
    const position = at ? ` at line ${at.line}, column ${at.col}` : '';
    throw new ConfigError(`kubeconfig ${path} is not valid YAML: ${problem.code}${position}`);
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // Alias bombs and bad merge keys surface here; the message names no content.
    const code = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new ConfigError(`kubeconfig ${path} is not valid YAML: ${code}`);
  }
}

function readCluster(fields: FieldReader, body: YamlMap, where: string): KubeconfigCluster {
  const cluster: KubeconfigCluster = {
    server: fields.str(body, 'server', where),
    certificateAuthority: fields.pathField(body, 'certificate-authority', where),
    certificateAuthorityData: fields.base64(body, 'certificate-authority-data', where),
    insecureSkipTlsVerify: fields.bool(body, 'insecure-skip-tls-verify', where),
    tlsServerName: fields.str(body, 'tls-server-name', where),
    proxyUrl: fields.str(body, 'proxy-url', where),
    disableCompression: fields.bool(body, 'disable-compression', where),
  };
  fields.list(body.extensions, `${where}.extensions`).forEach((item, i) => {
    const ext = fields.map(item, `${where}.extensions[${i}]`) ?? {};
    if (ext.name === EXEC_EXTENSION) cluster.execExtension = ext.extension;
    if (ext.name === SERVERS_EXTENSION) {
      const at = `${where}.extensions[${i}].extension`;
      const servers = fields.map(ext.extension, at) ?? {};
      cluster.servers = fields.list(servers.servers, `${at}.servers`).map((url, j) => {
        if (typeof url !== 'string' || url === '') throw fields.fail(`${at}.servers[${j}]`, 'must be a URL');
        return url;
      });
    }
  });
  return cluster;
}

function readUser(fields: FieldReader, body: YamlMap, where: string): KubeconfigUser {
  const user: KubeconfigUser = {
    token: fields.str(body, 'token', where),
    tokenFile: fields.pathField(body, 'tokenFile', where),
    clientCertificate: fields.pathField(body, 'client-certificate', where),
    clientCertificateData: fields.base64(body, 'client-certificate-data', where),
    clientKey: fields.pathField(body, 'client-key', where),
    clientKeyData: fields.base64(body, 'client-key-data', where),
    username: fields.str(body, 'username', where),
    password: fields.str(body, 'password', where),
  };
  const provider = fields.map(body['auth-provider'], `${where}.auth-provider`);
  if (provider !== undefined)
    user.authProvider = fields.str(provider, 'name', `${where}.auth-provider`) ?? '(unnamed)';
  const exec = fields.map(body.exec, `${where}.exec`);
  if (exec !== undefined) user.exec = readExec(fields, exec, `${where}.exec`);
  return user;
}

function readExec(fields: FieldReader, body: YamlMap, where: string): ExecConfig {
  const command = fields.str(body, 'command', where);
  if (command === undefined) throw fields.fail(`${where}.command`, 'is required');
  const args = fields.list(body.args, `${where}.args`).map((arg, i) => {
    if (typeof arg !== 'string') throw fields.fail(`${where}.args[${i}]`, 'must be a string');
    return arg;
  });
  const env = fields.list(body.env, `${where}.env`).map((item, i) => {
    const entry = fields.map(item, `${where}.env[${i}]`) ?? {};
    const name = fields.str(entry, 'name', `${where}.env[${i}]`);
    if (name === undefined) throw fields.fail(`${where}.env[${i}].name`, 'is required');
    return { name, value: fields.str(entry, 'value', `${where}.env[${i}]`) ?? '' };
  });
  return {
    apiVersion: fields.str(body, 'apiVersion', where),
    // client-go resolves the command only when it names a path; a bare name is looked up in PATH.
    command: command.includes(sep) ? resolveAgainst(fields.file, command) : command,
    args,
    env,
    interactiveMode: fields.str(body, 'interactiveMode', where),
    provideClusterInfo: fields.bool(body, 'provideClusterInfo', where),
    installHint: fields.str(body, 'installHint', where),
  };
}
