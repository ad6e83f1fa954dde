/**
 * Invalid objects, generated per kind from the reference's own OpenAPI v3
 * (`/openapi/v3/<group-version>`): each field of the wrong type, each
 * required field left out, each enum given a value outside it, each field
 * documented as immutable changed on update. The walk starts at the sample
 * object: every property of every object schema the sample reaches is
 * mutated, and the walk goes on into the properties the sample sets.
 */

import { send } from '../http.js';
import type { Server } from '../runner.js';
import type { FidelityCase } from '../types.js';
import { type KindSample, SAMPLES, sampleName } from './samples.js';
import { created, withValue } from './verbs.js';

type Schema = {
  type?: string;
  $ref?: string;
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  enum?: unknown[];
  description?: string;
  format?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  additionalProperties?: Schema | boolean;
};

type Components = Record<string, Schema>;

/** Schemas whose JSON form accepts more than their OpenAPI type says (Quantity takes numbers too; Time is a string). */
const LENIENT = new Set([
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  'io.k8s.apimachinery.pkg.runtime.RawExtension',
]);

export async function invalidCases(reference: Server): Promise<FidelityCase[]> {
  const docs = await openapiDocs(reference, [...new Set(SAMPLES.map((s) => s.openapi))]);
  const out: FidelityCase[] = [];
  for (const sample of SAMPLES) {
    const components = docs.get(sample.openapi);
    if (!components) throw new Error(`the reference serves no OpenAPI v3 document ${sample.openapi}`);
    out.push(...casesFor(sample, components));
  }
  return out;
}

async function openapiDocs(server: Server, names: string[]): Promise<Map<string, Components>> {
  const index = await send(server, 'GET', '/openapi/v3', { accept: 'application/json' }, undefined);
  const paths = (JSON.parse(index.text) as { paths: Record<string, { serverRelativeURL: string }> }).paths;
  const out = new Map<string, Components>();
  for (const name of names) {
    const ref = paths[name];
    if (!ref) continue;
    const doc = await send(server, 'GET', ref.serverRelativeURL, { accept: 'application/json' }, undefined);
    out.set(name, (JSON.parse(doc.text) as { components: { schemas: Components } }).components.schemas);
  }
  return out;
}

function refName(s: Schema): string | undefined {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0].$ref : undefined);
  return ref?.replace('#/components/schemas/', '');
}

function resolve(s: Schema, components: Components): Schema {
  const name = refName(s);
  return name ? { ...components[name], description: s.description ?? components[name]?.description } : s;
}

/** A value of the wrong JSON type for `s`, or undefined where every type is accepted. */
function wrongValue(s: Schema, components: Components): unknown {
  const name = refName(s);
  if (name && LENIENT.has(name)) return undefined;
  const r = resolve(s, components);
  if (r['x-kubernetes-int-or-string'] || r['x-kubernetes-preserve-unknown-fields']) return undefined;
  switch (r.type) {
    case 'string':
      return r.format === 'byte' ? 12 : 12345;
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return 'not-a-list';
    case 'object':
      return 'not-an-object';
    default:
      return r.properties ? 'not-an-object' : undefined;
  }
}

function casesFor(sample: KindSample, components: Components): FidelityCase[] {
  const out: FidelityCase[] = [];
  const name = sampleName(sample, 'obj');
  const body = sample.object(name);
  const root = components[sample.schema];
  if (!root) throw new Error(`no schema ${sample.schema}`);
  const create = (object: unknown) => ({
    request: { method: 'POST', path: sample.collection, body: object },
  });
  const seen = new Set<string>();
  const visit = (schema: Schema, value: unknown, path: string[], depth: number) => {
    const r = resolve(schema, components);
    const typeName = refName(schema) ?? '';
    if (depth > 6 || seen.has(`${path.join('.')}|${typeName}`)) return;
    seen.add(`${path.join('.')}|${typeName}`);
    if (r.type === 'array' && r.items && Array.isArray(value) && value.length > 0) {
      visit(r.items, value[0], [...path, '0'], depth + 1);
      return;
    }
    if (!r.properties || value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    const at = path.join('.');
    for (const [prop, propSchema] of Object.entries(r.properties)) {
      if (prop === 'apiVersion' || prop === 'kind') continue;
      const fieldPath = [...path, prop];
      const label = fieldPath.join('.');
      const wrong = wrongValue(propSchema, components);
      if (wrong !== undefined) {
        out.push({
          id: `invalid/${sample.label ?? sample.kind}/wrong-type/${label}`,
          area: 'invalid-objects',
          steps: [create(withValue(body, fieldPath, wrong))],
        });
      }
      const p = resolve(propSchema, components);
      if (p.enum && p.enum.length > 0 && p.type === 'string' && prop in object) {
        out.push({
          id: `invalid/${sample.label ?? sample.kind}/enum/${label}`,
          area: 'invalid-objects',
          steps: [create(withValue(body, fieldPath, 'NotAnAllowedValue'))],
        });
      }
      if (
        prop in object &&
        /immutable|cannot be updated/i.test(p.description ?? '') &&
        path[0] !== 'metadata'
      ) {
        out.push({
          id: `invalid/${sample.label ?? sample.kind}/immutable/${label}`,
          area: 'invalid-objects',
          steps: [
            created(sample, name),
            {
              request: {
                method: 'PUT',
                path: `${sample.collection}/${name}`,
                body: withValue(body, fieldPath, changedValue(object[prop])),
              },
            },
          ],
        });
      }
      if (prop in object) visit(propSchema, object[prop], fieldPath, depth + 1);
    }
    for (const req of r.required ?? []) {
      if (!(req in object) || req === 'apiVersion' || req === 'kind') continue;
      out.push({
        id: `invalid/${sample.label ?? sample.kind}/required/${at ? `${at}.` : ''}${req}`,
        area: 'invalid-objects',
        steps: [create(withValue(body, [...path, req], undefined))],
      });
    }
  };
  visit(root, body, [], 0);
  return out;
}

/** A different value of the same JSON type. */
function changedValue(v: unknown): unknown {
  if (typeof v === 'string') return `${v}-changed`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return [...v, ...v];
  if (v && typeof v === 'object') return { ...v, changed: 'yes' };
  return 'changed';
}
