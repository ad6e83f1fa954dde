/** What a fuzz request targets: paths from the real path grammar with garbage mixed in, and queries. */
import type { IncomingHttpHeaders } from 'node:http';
import type { ResourceKind } from '../../../../src/server/kinds/types.js';
import { chance, int, pick } from './random.js';
export const NAMESPACES = ['fz-a', 'fz-b', 'fz-c'];
export const NAMES = ['a', 'b', 'c', 'web', 'x-1'];
export const JUNK_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%2F',
  '%00',
  '..',
  '.',
  'a%2Fb',
  '%C3%A9',
  '~',
  ':',
  '@',
  '*',
];

export interface Target {
  kind?: ResourceKind;
  namespace?: string;
  name?: string;
  subresource?: string;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The well-formed target this request was built from, undefined once the path was mangled. */
  target?: Target;
  dryRun: boolean;
}

export interface FuzzAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  streamed: boolean;
}

export function kindPrefix(kind: ResourceKind): string {
  return kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
}

export function resourcePath(t: Target, watchPrefix: boolean): string {
  const kind = t.kind!;
  const parts = [kindPrefix(kind)];
  if (watchPrefix) parts.push('watch');
  if (kind.namespaced && t.namespace !== undefined) parts.push('namespaces', t.namespace);
  parts.push(kind.plural);
  if (t.name !== undefined) parts.push(t.name);
  if (t.subresource !== undefined) parts.push(t.subresource);
  return parts.join('/');
}

export const NON_RESOURCE = [
  '/healthz',
  '/livez',
  '/readyz',
  '/version',
  '/api',
  '/apis',
  '/api/v1',
  '/apis/apps',
  '/apis/apps/v1',
  '/openapi/v2',
  '/openapi/v3',
  '/openapi/v3/api/v1',
  '/openapi/v3/apis/apps/v1',
  '/metrics',
  '/debug/watchmark/stats',
  '/debug/watchmark/nope',
  '/',
  '/api/v1/namespaces/fz-a/status',
  '/api/v1/namespaces/fz-a/finalize',
];

/** Mangles a well-formed path: junk segments, `..`, bad %-escapes, doubled slashes, huge segments. */
export function mangle(path: string): string {
  const segments = path.split('/');
  const at = 1 + int(Math.max(1, segments.length - 1));
  switch (int(8)) {
    case 0:
      segments.splice(at, 0, pick(JUNK_SEGMENTS));
      break;
    case 1:
      segments[at] = pick(JUNK_SEGMENTS);
      break;
    case 2: {
      // A valid escape of one character: the same path, spelled differently.
      const s = segments[at] ?? '';
      if (s.length > 0) {
        const i = int(s.length);
        segments[at] = `${s.slice(0, i)}%${s.charCodeAt(i).toString(16).padStart(2, '0')}${s.slice(i + 1)}`;
      }
      break;
    }
    case 3:
      return path.replace('/', '//');
    case 4:
      return `${path}/`;
    case 5:
      segments[at] = 'x'.repeat(1 + int(5000));
      break;
    case 6:
      segments[at] = (segments[at] ?? '').toUpperCase();
      break;
    default:
      segments.splice(at, 1);
  }
  return segments.join('/') || '/';
}

export const QUERY_VALUES: Record<string, () => string> = {
  resourceVersion: () =>
    pick(['', '0', '1', '2', String(int(400)), '99999999999', 'abc', '-1', '1e3', '%zz']),
  resourceVersionMatch: () => pick(['Exact', 'NotOlderThan', 'exact', '', 'Sideways']),
  limit: () => pick(['1', '2', '5', '0', '-3', 'x', '1e3', '99999999999999999999', '']),
  continue: () =>
    pick([
      ...continueTokens.slice(-3),
      'garbage',
      'e30',
      '%%',
      Buffer.from('{"v":"meta.k8s.io/v1","rv":1,"start":"../x"}').toString('base64url'),
    ]),
  labelSelector: () =>
    pick([
      'app=a',
      'app!=a',
      'app in (a,b)',
      '!app',
      'a,b',
      'app=',
      '=',
      'a in (',
      '%zz',
      'x'.repeat(300),
      'app notin (a)',
    ]),
  fieldSelector: () =>
    pick([
      'metadata.name=a',
      'metadata.namespace=fz-a',
      'spec.nodeName=',
      'status.phase!=Running',
      'bogus=1',
      '=',
      'metadata.name',
      'a,,b',
    ]),
  watch: () => pick(['1', 'true', 'false', '0', 'yes', '']),
  timeoutSeconds: () => '1',
  allowWatchBookmarks: () => pick(['true', 'false', 'maybe']),
  sendInitialEvents: () => pick(['true', 'false', 'x']),
  dryRun: () => pick(['All', 'None', '']),
  fieldValidation: () => pick(['Strict', 'Warn', 'Ignore', 'Loud']),
  fieldManager: () => pick(['fuzz', '', 'x'.repeat(200)]),
  propagationPolicy: () => pick(['Foreground', 'Background', 'Orphan', 'Never']),
  includeObject: () => pick(['Object', 'Metadata', 'None', 'All']),
  pretty: () => pick(['true', '1']),
};

export const continueTokens: string[] = [];

export function query(target: Target | undefined): string {
  const parts: string[] = [];
  const n = int(5);
  const keys = Object.keys(QUERY_VALUES);
  for (let i = 0; i < n; i++) {
    const key = pick(keys);
    const value = QUERY_VALUES[key]();
    parts.push(chance(0.9) ? `${key}=${encodeURIComponent(value)}` : `${key}=${value.replace(/[ #]/g, '+')}`);
  }
  if (target && chance(0.05)) parts.push('&&=', '%', '=x');
  // A watch of any shape must end on its own: the stream is also cut client-side.
  if (parts.some((p) => p.startsWith('watch=')) || chance(0.05)) parts.push('timeoutSeconds=1');
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}
