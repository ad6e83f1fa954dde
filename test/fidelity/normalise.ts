/**
 * Normalisation: the one place that says which parts of an answer may differ
 * between two correct servers, each rule with its reason. Everything not
 * named here is compared byte for byte (after JSON parsing).
 */

import type { Observation } from './types.js';

/** The headers a client reads; the rest (Audit-Id, Date, Content-Length, APF ids, ...) are per request. */
const COMPARED_HEADERS = ['content-type', 'warning'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const RFC3339_ANYWHERE = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const SERVER_ADDRESS = /(https?:\/\/)?(127\.0\.0\.1|localhost|\[::1\]):\d+/g;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Each rule and why it exists; docs/fidelity.md lists them. */
export const NORMALISATION_RULES: Array<{ rule: string; reason: string }> = [
  {
    rule: 'UUID strings become <uid>',
    reason: 'uids are random per object (metadata.uid, ownerReferences, Status details)',
  },
  {
    rule: 'RFC 3339 times become <time>',
    reason: 'creationTimestamp, managedFields times, deletionTimestamp, event times: the clock differs',
  },
  {
    rule: 'resourceVersion values become <rv:K>, K their rank among the case’s resourceVersions',
    reason:
      'each server counts its own revisions (kube-apiserver also writes leases and events of its own); only their order within the case is behaviour',
  },
  {
    rule: "a list's and a BOOKMARK's resourceVersion become <rv:≥K>, K the number of the case's object resourceVersions at or below it",
    reason:
      "they are the store's current revision, which on kube-apiserver also counts other cases' writes running beside this one: only where they stand among the case's own objects is behaviour",
  },
  {
    rule: 'a precondition message\'s quoted resourceVersion ("in record (N)") is ranked like the others',
    reason: 'it is the stored object’s revision, counted by each server',
  },
  {
    rule: 'continue tokens are decoded; their resourceVersion is placed like a list’s',
    reason: 'the token embeds a revision; its start key is compared',
  },
  {
    rule: 'a name made from generateName keeps its prefix; the 5 random characters become <random>, in messages too',
    reason: 'the suffix is random (names.SimpleNameGenerator)',
  },
  {
    rule: "the ServiceAccount admission plugin's token volume name kube-api-access-<5 characters> becomes kube-api-access-<random>, wherever it is named",
    reason: 'the plugin draws the suffix at random (names.SimpleNameGenerator)',
  },
  {
    rule: "a cluster IP allocated at random (in the dynamic part of 10.96.0.0/12, 10.96.1.0 and up, or of a /24 ServiceCIDR the cases add in 10.250.0.0-10.254.255.255, .17 and up; or a range's network address, which a dry run answers) becomes <ip> wherever a value is one whole (clusterIP, clusterIPs, an IPAddress's name, a cell); nodePort values become <port>",
    reason:
      "kube-apiserver picks a free address at random in the upper part of a random ready ServiceCIDR (ipallocator.go allocateNextService); requested addresses, kept to the static parts below (10.96.0.1-10.96.0.255, .1-.16 of a case's /24), are compared",
  },
  {
    rule: 'loopback addresses with a port become <server>',
    reason: 'each server listens on its own free port',
  },
  {
    rule: 'only Content-Type and Warning headers are compared',
    reason: 'Audit-Id, Date, Content-Length and the flow-control ids are per request',
  },
  {
    rule: 'kubectl output: ages (0s, 5m) become <age>',
    reason: 'the two servers are started at different times',
  },
  {
    rule: "kubectl output: a Service's cluster IP allocated at random (as above) becomes <ip>, and then runs of spaces are one",
    reason: 'each server allocates cluster IPs at random; the columns are as wide as the addresses',
  },
  {
    rule: "an apply conflict's causes are sorted by field, then manager",
    reason:
      'structured-merge-diff collects them from a Go map of managers (merge/update.go, ConflictsFromManagers): their order is random; the message sorts managers itself',
  },
];

/** Normalises one server's observations of one case (resourceVersion ranks span the whole case). */
export function normaliseCase(raw: Observation[]): Observation[] {
  const observations = raw.map(markGlobalVersions);
  const rvs = new Set<bigint>();
  const generated = new Map<string, string>();
  for (const o of observations) {
    collectResourceVersions(o, rvs);
    collectGeneratedNames(o, generated);
  }
  const sorted = [...rvs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const ranks = new Map(sorted.map((rv, i) => [rv, i + 1]));
  const rank = (value: string) => {
    if (value.startsWith(GLOBAL)) {
      const rv = BigInt(value.slice(GLOBAL.length));
      return `<rv:≥${sorted.filter((v) => v <= rv).length}>`;
    }
    if (!/^\d+$/.test(value)) return value;
    return `<rv:${ranks.get(BigInt(value)) ?? '?'}>`;
  };
  return observations.map((o) => {
    const out: Observation = { ...o };
    if (o.headers) out.headers = pickHeaders(o.headers);
    const norm = (v: unknown) => walk(ages(v), rank, undefined, generated);
    if (o.body !== undefined) out.body = norm(sortConflictCauses(o.body));
    if (o.events) out.events = o.events.map((e) => norm(e) as { type: string; object: unknown });
    if (o.stdout !== undefined) out.stdout = kubectlText(o.stdout);
    if (o.stderr !== undefined) out.stderr = kubectlText(o.stderr);
    return out;
  });
}

/** A Status of an apply conflict with its causes in a stable order (see NORMALISATION_RULES). */
function sortConflictCauses(body: unknown): unknown {
  const status = body as {
    reason?: string;
    details?: { causes?: Array<{ field?: string; message?: string }> };
  };
  const causes = status?.details?.causes;
  if (status?.reason !== 'Conflict' || !Array.isArray(causes)) return body;
  const key = (c: { field?: string; message?: string }) => `${c.field ?? ''}\u0000${c.message ?? ''}`;
  const sorted = [...causes].sort((a, b) => key(a).localeCompare(key(b)));
  return { ...status, details: { ...status.details, causes: sorted } };
}

function pickHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of COMPARED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = value.replace(SERVER_ADDRESS, '<server>');
  }
  return out;
}

/** Marks a store-wide resourceVersion (a list's, a bookmark's, a continue token's). */
const GLOBAL = '\u0000global:';

/** The observation with its lists' and bookmarks' resourceVersions marked {@link GLOBAL}. */
function markGlobalVersions(o: Observation): Observation {
  const mark = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(mark);
    if (!value || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mark(v);
    const meta = out.metadata as Record<string, unknown> | undefined;
    if ((Array.isArray(out.items) || Array.isArray(out.rows)) && meta && typeof meta === 'object') {
      out.metadata = { ...meta };
      markField(out.metadata as Record<string, unknown>, 'resourceVersion');
      const token = decodeContinue(String(meta.continue ?? ''));
      if (token && typeof token.rv === 'number') {
        (out.metadata as Record<string, unknown>).continue =
          `<continue rv:${GLOBAL}${token.rv} start:${String(token.start)}>`;
      }
    }
    return out;
  };
  const out: Observation = { ...o };
  if (o.body !== undefined) out.body = mark(o.body);
  if (o.events) {
    out.events = o.events.map((e) => {
      const event = mark(e) as { type: string; object: unknown };
      const meta = (event.object as { metadata?: Record<string, unknown> } | undefined)?.metadata;
      if (event.type === 'BOOKMARK' && meta) {
        event.object = { ...(event.object as object), metadata: { ...meta } };
        markField((event.object as { metadata: Record<string, unknown> }).metadata, 'resourceVersion');
      }
      return event;
    });
  }
  return out;
}

function markField(meta: Record<string, unknown>, key: string): void {
  if (typeof meta[key] === 'string' && /^\d+$/.test(meta[key] as string)) meta[key] = `${GLOBAL}${meta[key]}`;
}

function collectResourceVersions(value: unknown, into: Set<bigint>, key?: string): void {
  if (typeof value === 'string') {
    if (key === 'resourceVersion' && /^\d+$/.test(value)) into.add(BigInt(value));
    if (key === 'continue') {
      const token = decodeContinue(value);
      if (token && typeof token.rv === 'number') into.add(BigInt(token.rv));
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) collectResourceVersions(v, into);
    return;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) collectResourceVersions(v, into, k);
  }
}

/** Names made from generateName anywhere in the case, mapped to `prefix<random>`. */
function collectGeneratedNames(value: unknown, into: Map<string, string>): void {
  if (Array.isArray(value)) {
    for (const v of value) collectGeneratedNames(v, into);
    return;
  }
  if (!value || typeof value !== 'object') return;
  // A Status refusing a generated name: its details name it, its message quotes the prefix.
  const status = value as { message?: unknown; details?: { name?: unknown } };
  const prefix =
    typeof status.message === 'string'
      ? /metadata\.generateName: Invalid value: "([^"]+)"/.exec(status.message)?.[1]
      : undefined;
  const refused = status.details?.name;
  if (
    prefix &&
    typeof refused === 'string' &&
    refused.startsWith(prefix) &&
    refused.length === prefix.length + 5
  )
    into.set(refused, `${prefix}<random>`);
  const { name, generateName } = value as { name?: unknown; generateName?: unknown };
  if (typeof name === 'string' && TOKEN_VOLUME.test(name)) into.set(name, TOKEN_VOLUME_MASK);
  if (
    typeof name === 'string' &&
    typeof generateName === 'string' &&
    name.startsWith(generateName) &&
    name.length === generateName.length + 5
  ) {
    into.set(name, `${generateName}<random>`);
  }
  for (const v of Object.values(value)) collectGeneratedNames(v, into);
}

/** The ServiceAccount admission plugin's token volume: its prefix and utilrand's 5 characters. */
const TOKEN_VOLUME = /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/;
const TOKEN_VOLUME_MASK = 'kube-api-access-<random>';

/** Table columns whose cells are normalised, and what they become. */
const TABLE_CELLS: Record<string, string> = { Age: '<age>' };

/** A Table with its Age cells replaced (a random cluster IP's cell is masked as any value is). */
function ages(value: unknown): unknown {
  const table = value as {
    kind?: string;
    columnDefinitions?: Array<{ name: string }>;
    rows?: Array<{ cells: unknown[] }>;
  };
  if (table?.kind !== 'Table' || !Array.isArray(table.columnDefinitions) || !Array.isArray(table.rows))
    return value;
  const replaced = table.columnDefinitions.map((c) => TABLE_CELLS[c.name]);
  if (replaced.every((r) => r === undefined)) return value;
  return {
    ...table,
    rows: table.rows.map((r) => ({ ...r, cells: r.cells.map((c, i) => replaced[i] ?? c) })),
  };
}

function walk(
  value: unknown,
  rank: (rv: string) => string,
  key: string | undefined,
  generated: Map<string, string>,
): unknown {
  if (typeof value === 'string') {
    const whole = generated.get(value);
    if (whole !== undefined) return whole;
    let text = value;
    for (const [name, masked] of generated) if (text.includes(name)) text = text.split(name).join(masked);
    return scalar(text, rank, key);
  }
  if (typeof value === 'number' && key === 'nodePort') return '<port>';
  if (Array.isArray(value)) {
    return value.map((v) =>
      typeof v === 'string' && randomClusterIp(v) ? '<ip>' : walk(v, rank, undefined, generated),
    );
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    // managedFields keys name list items by uid (`k:{"uid":"..."}`).
    for (const [k, v] of Object.entries(value)) out[maskKey(k, generated)] = walk(v, rank, k, generated);
    return out;
  }
  return value;
}

/** A key with uids and generated names masked (managedFields keys name list items: `k:{"name":"..."}`). */
function maskKey(key: string, generated: Map<string, string>): string {
  let out = key.replace(UUID_ANYWHERE, '<uid>');
  if (out.startsWith('k:')) for (const [name, masked] of generated) out = out.split(name).join(masked);
  return out;
}

function scalar(value: string, rank: (rv: string) => string, key: string | undefined): string {
  if (key === 'resourceVersion') return rank(value);
  if (key === 'message') {
    // A precondition's message quotes the stored object's resourceVersion ("... in record (N)").
    value = value.replace(
      /(ResourceVersion in (?:record:? \(?|object meta: ))(\d+)/g,
      (_m, lead: string, rv: string) => lead + rank(rv),
    );
  }
  if (key === 'continue' && value.includes(GLOBAL)) {
    return value.replace(new RegExp(`${GLOBAL}(\\d+)`), (_m, rv: string) => rank(`${GLOBAL}${rv}`));
  }
  if (key === 'continue' && value !== '') {
    const token = decodeContinue(value);
    if (!token) return '<continue>';
    return `<continue rv:${rank(String(token.rv))} start:${String(token.start)}>`;
  }
  if (randomClusterIp(value)) return '<ip>';
  if (UUID.test(value)) return '<uid>';
  if (RFC3339.test(value)) return '<time>';
  // Messages quote uids and times too (a precondition's "UID in object meta: ...").
  return value
    .replace(SERVER_ADDRESS, '<server>')
    .replace(UUID_ANYWHERE, '<uid>')
    .replace(RFC3339_ANYWHERE, '<time>');
}

/**
 * An address kube-apiserver's allocator may have picked at random: in the upper part of the
 * default range (10.96.0.0/12 from 10.96.1.0) or of a case's /24 ServiceCIDR (10.250-10.254.x.0/24
 * from .17), or a range's network address (a dry run's answer). The static parts below them are
 * what cases request, and are compared.
 */
function randomClusterIp(value: string): boolean {
  if (!IPV4.test(value)) return false;
  const [a, b, c, d] = value.split('.').map(Number);
  if (a !== 10) return false;
  if (b >= 96 && b <= 111) return b > 96 || c > 0 || d === 0;
  if (b >= 250 && b <= 254) return c > 0 || d === 0 || d > 16;
  return false;
}

function decodeContinue(token: string): { rv?: unknown; start?: unknown } | undefined {
  try {
    const decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return decoded && typeof decoded === 'object' ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** An IPv4 address in kubectl's text, masked when {@link randomClusterIp}. */
const TEXT_IPV4 = /(?<![\d.])10\.\d{1,3}\.\d{1,3}\.\d{1,3}(?![\d.])/g;

function kubectlText(text: string): string {
  const replaced = text.replace(TEXT_IPV4, (m) => (randomClusterIp(m) ? '<ip>' : m));
  // The columns are as wide as the addresses: once one is masked, runs of spaces are one.
  const masked = replaced === text ? text : replaced.replace(/ {2,}/g, ' ');
  return masked
    .replace(SERVER_ADDRESS, '<server>')
    .replace(/(?<=\s)(\d+(s|m|h|d)(\d+(s|m|h))?|<invalid>)(?=\s|$)/g, '<age>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>');
}
