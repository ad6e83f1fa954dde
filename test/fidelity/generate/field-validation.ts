/**
 * `fieldValidation` (unset, Strict, Warn, Ignore) × where the unknown or
 * duplicate field is (top level, metadata, spec, a list item, a repeated
 * key, several at once) × the write (create, update, merge patch, strategic
 * merge patch, apply), on a Deployment; the top-level and metadata cases
 * again on a ConfigMap, a list item of a Service's ports, and an invalid
 * directive on each write. Warnings are compared in the `Warning` header.
 */

import type { FidelityCase, RequestSpec, Step } from '../types.js';
import { fieldValidationOrderCases } from './field-validation-order.js';
import { SAMPLES } from './samples.js';
import { created, withValue } from './verbs.js';

type Verb = 'create' | 'update' | 'merge' | 'strategic' | 'apply';
const VERBS: Verb[] = ['create', 'update', 'merge', 'strategic', 'apply'];
const DIRECTIVES = ['', 'Strict', 'Warn', 'Ignore'];

const CONTENT_TYPE: Record<Verb, string> = {
  create: 'application/json',
  update: 'application/json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

/** A place for an unknown or repeated field: the full object with it, the patch with it. */
interface Location {
  id: string;
  /** Full object (create, update, apply): JSON value, or text when a key repeats. */
  full(object: Record<string, unknown>): Record<string, unknown> | string;
  /** A merge / strategic merge patch carrying it. */
  patch(object: Record<string, unknown>, verb: 'merge' | 'strategic'): Record<string, unknown> | string;
}

/** JSON text of `value` with `"key":...` of the first object at `marker` repeated. */
function repeatKey(value: unknown, marker: string, repeated: string): string {
  const text = JSON.stringify(value);
  const i = text.indexOf(marker);
  if (i < 0) throw new Error(`no ${marker} in ${text}`);
  return `${text.slice(0, i)}${repeated},${text.slice(i)}`;
}

const deploymentLocations: Location[] = [
  {
    id: 'top-level',
    full: (o) => ({ ...o, bogus: 1 }),
    patch: () => ({ bogus: 1 }),
  },
  {
    id: 'metadata',
    full: (o) => withValue(o, ['metadata', 'bogus'], 'x'),
    patch: () => ({ metadata: { bogus: 'x' } }),
  },
  {
    id: 'spec',
    full: (o) => withValue(o, ['spec', 'bogus'], 'x'),
    patch: () => ({ spec: { bogus: 'x' } }),
  },
  {
    id: 'list-item',
    full: (o) => withValue(o, ['spec', 'template', 'spec', 'containers', '0', 'bogus'], 'x'),
    patch: (_o, verb) => ({
      spec: {
        template: {
          spec: {
            containers: [
              verb === 'merge'
                ? { name: 'app', image: 'nginx:1.27', bogus: 'x' }
                : { name: 'app', bogus: 'x' },
            ],
          },
        },
      },
    }),
  },
  {
    id: 'several-unknown',
    full: (o) =>
      withValue(withValue({ ...o, zeta: 1 }, ['spec', 'alpha'], 'x'), ['metadata', 'labelz'], { a: 'b' }),
    patch: () => ({ zeta: 1, spec: { alpha: 'x' }, metadata: { labelz: { a: 'b' } } }),
  },
  {
    id: 'duplicate',
    full: (o) => repeatKey(o, '"replicas":', '"replicas":5'),
    patch: () => '{"spec":{"replicas":4,"replicas":5}}',
  },
  {
    id: 'duplicate-and-unknown',
    full: (o) => repeatKey(withValue(o, ['spec', 'bogus'], 'x'), '"replicas":', '"replicas":5'),
    patch: () => '{"spec":{"replicas":4,"bogus":"x","replicas":5}}',
  },
];

const configMapLocations: Location[] = [
  deploymentLocations[0],
  deploymentLocations[1],
  {
    id: 'duplicate',
    full: (o) => repeatKey(o, '"data":', '"data":{"other":"v"}'),
    patch: () => '{"data":{"key":"a","key":"b"}}',
  },
  {
    id: 'duplicate-label',
    full: (o) => repeatKey(withValue(o, ['metadata', 'labels'], { a: '1' }), '"a":', '"a":"0"'),
    patch: () => '{"metadata":{"labels":{"a":"1","a":"2"}}}',
  },
];

const serviceLocations: Location[] = [
  {
    id: 'list-item',
    full: (o) => withValue(o, ['spec', 'ports', '0', 'bogus'], 'x'),
    patch: (_o, verb) => ({
      spec: {
        ports: [
          verb === 'merge'
            ? { name: 'http', port: 80, targetPort: 8080, bogus: 'x' }
            : { port: 80, bogus: 'x' },
        ],
      },
    }),
  },
  {
    id: 'status',
    full: (o) => withValue(o, ['status', 'bogus'], 'x'),
    patch: () => ({ status: { bogus: 'x' } }),
  },
];

export function fieldValidationCases(): FidelityCase[] {
  const out: FidelityCase[] = [];
  const subjects: Array<[string, Location[], string[]]> = [
    ['Deployment', deploymentLocations, DIRECTIVES],
    ['ConfigMap', configMapLocations, DIRECTIVES],
    ['Service', serviceLocations, ['Strict', 'Warn']],
  ];
  for (const [kind, locations, directives] of subjects) {
    const s = SAMPLES.find((x) => x.kind === kind)!;
    const name = 'obj';
    const item = `${s.collection}/${name}`;
    const object = s.object(name);
    for (const loc of locations) {
      for (const verb of VERBS) {
        for (const directive of directives) {
          // A merge patch refused by Strict quotes the whole patched object, uid and times
          // included, inside its message: not comparable between two servers.
          if (verb === 'merge' && directive === 'Strict') continue;
          const query: Record<string, string> = {};
          if (directive !== '') query.fieldValidation = directive;
          if (verb === 'apply') query.fieldManager = 'fc';
          const payload =
            verb === 'merge' || verb === 'strategic' ? loc.patch(object, verb) : loc.full(object);
          const req: RequestSpec = {
            method: verb === 'create' ? 'POST' : verb === 'update' ? 'PUT' : 'PATCH',
            path: verb === 'create' ? s.collection : item,
            query,
            headers: { 'content-type': CONTENT_TYPE[verb] },
            ...(typeof payload === 'string' ? { bodyText: payload } : { body: payload }),
          };
          const steps: Step[] = [];
          if (verb !== 'create' && verb !== 'apply') steps.push(created(s, name));
          steps.push({ request: req }, { request: { path: item } });
          out.push({
            id: `field-validation/${kind}/${loc.id}/${verb}/${directive || 'unset'}`,
            area: 'field-validation',
            steps,
          });
        }
      }
    }
    // An unsupported directive: refused whatever the body (the options' validation).
    for (const verb of VERBS) {
      const query: Record<string, string> = { fieldValidation: 'Loose' };
      if (verb === 'apply') query.fieldManager = 'fc';
      const steps: Step[] = [];
      if (verb !== 'create' && verb !== 'apply') steps.push(created(s, name));
      steps.push({
        request: {
          method: verb === 'create' ? 'POST' : verb === 'update' ? 'PUT' : 'PATCH',
          path: verb === 'create' ? s.collection : item,
          query,
          headers: { 'content-type': CONTENT_TYPE[verb] },
          body: verb === 'merge' || verb === 'strategic' ? { metadata: { labels: { a: 'b' } } } : object,
        },
      });
      out.push({ id: `field-validation/${kind}/invalid-directive/${verb}`, area: 'field-validation', steps });
    }
  }
  out.push(...fieldValidationOrderCases());
  return out;
}
