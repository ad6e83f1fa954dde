/**
 * The quick validity check that runs before the full validation walk (validate.ts `isClean`)
 * must say "valid" exactly when the full walk finds no error: a wrong yes would let an invalid
 * object in, a wrong no only costs time, but both are caught here. Seeded random mutations of
 * the real CRDs' example objects (values swapped for ones at and past each schema bound, wrong
 * types, removed and added keys) and random values against composite schemas, compared one by
 * one.
 */
import { describe, expect, it } from 'vitest';
import { isClean } from '../../../../src/server/crd/schema/clean.js';
import { fullWalkErrors } from '../../../../src/server/crd/schema/openapi-walk.js';
import {
  type CrdSchemaProps,
  compileStructural,
  type Structural,
} from '../../../../src/server/crd/schema/structural.js';
import { loadExampleObjects, loadRealCrd, REAL_CRDS } from '../../../../support/fixtures/crds/index.js';

/** mulberry32: a small seeded generator, so a failure replays. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Every path in `v` (the root included), as key lists. */
function pathsOf(v: Json, at: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  out.push(at);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) pathsOf(v[i], [...at, i], out);
  } else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

/** The schema node a path leads to, when the schema names one. */
function schemaAt(s: Structural, path: Array<string | number>): Structural | undefined {
  let node: Structural | undefined = s;
  for (const step of path) {
    if (node === undefined) return undefined;
    if (typeof step === 'number') node = node.items;
    else
      node =
        node.properties?.get(step) ??
        (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
  }
  return node;
}

/** Values worth trying where `s` applies: each bound, one past it, enum members, wrong types. */
function candidates(s: Structural | undefined, current: Json): Json[] {
  const out: Json[] = [null, true, 0, -1, 1.5, '', 'x', [], {}, [current], { extra: current }];
  if (s === undefined) return out;
  for (const e of s.enum ?? []) out.push(e as Json, `${String(e)}!`);
  if (s.minLength !== undefined) out.push('a'.repeat(s.minLength), 'a'.repeat(Math.max(0, s.minLength - 1)));
  if (s.maxLength !== undefined) out.push('é'.repeat(s.maxLength), 'a'.repeat(s.maxLength + 1));
  for (const b of [s.minimum, s.maximum]) if (b !== undefined) out.push(b, b - 1, b + 1, b + 0.5);
  if (s.multipleOf !== undefined) out.push(s.multipleOf * 3, s.multipleOf * 3 + 0.25);
  if (s.pattern) out.push('abc', 'ABC-1', 'a.b', '1.2.3.4', 'https://x.io/p', '*');
  if (s.format) out.push('2024-01-01T00:00:00Z', '10.0.0.1', 'not a value', 'a@b.io', '5m', 'QUJD');
  if (s.minItems !== undefined)
    out.push(Array(s.minItems).fill(current), Array(Math.max(0, s.minItems - 1)).fill(current));
  if (s.maxItems !== undefined) out.push(Array(s.maxItems + 1).fill(current));
  if (s.uniqueItems || s.listType === 'set') out.push([current, current]);
  if (s.intOrString) out.push(3, '3', '50%', 2.5);
  return out;
}

function getAt(v: Json, path: Array<string | number>): Json {
  let cur: Json = v;
  for (const step of path) cur = (cur as Record<string | number, Json>)[step];
  return cur;
}

/** One random change at a random place; returns the changed copy. */
function mutate(root: Structural, obj: Json, rand: () => number): Json {
  const copy = structuredClone(obj);
  const paths = pathsOf(copy);
  const path = paths[Math.floor(rand() * paths.length)];
  const current = getAt(copy, path);
  const pick = rand();
  if (path.length === 0) return copy;
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, Json>;
  const last = path[path.length - 1];
  if (pick < 0.15 && !Array.isArray(parent)) delete parent[last];
  else if (pick < 0.25 && current !== null && typeof current === 'object' && !Array.isArray(current))
    current[`unknown${Math.floor(rand() * 3)}`] = 'x';
  else {
    const options = candidates(schemaAt(root, path), current);
    parent[last] = structuredClone(options[Math.floor(rand() * options.length)]);
  }
  return copy;
}

function compare(schema: Structural, value: unknown): boolean {
  const full = fullWalkErrors(schema, value).length === 0;
  expect(isClean(schema, value), JSON.stringify(value).slice(0, 400)).toBe(full);
  return full;
}

describe('the quick validity check agrees with the full walk', () => {
  it.each(REAL_CRDS.map((c) => [c.kind, c] as const))('on mutated %s examples', (_kind, crd) => {
    const def = loadRealCrd(crd.file) as {
      spec: { versions: Array<{ schema?: { openAPIV3Schema?: CrdSchemaProps } }> };
    };
    const rand = prng(crd.kind.length * 7919);
    let valid = 0;
    let invalid = 0;
    for (const version of def.spec.versions) {
      const schema = compileStructural(version.schema?.openAPIV3Schema);
      for (const file of crd.examples) {
        for (const example of loadExampleObjects(file)) {
          compare(schema, example);
          for (let i = 0; i < 150; i++) {
            let obj = example as Json;
            const changes = 1 + Math.floor(rand() * 3);
            for (let c = 0; c < changes; c++) obj = mutate(schema, obj, rand);
            if (compare(schema, obj)) valid++;
            else invalid++;
          }
        }
      }
    }
    // Both answers must come up often, or the comparison proves little.
    expect(valid).toBeGreaterThan(10);
    expect(invalid).toBeGreaterThan(20);
  });

  it('on random values against allOf, anyOf, oneOf and not', () => {
    const branch = (i: number): CrdSchemaProps =>
      [
        { type: 'string', minLength: 2 },
        { type: 'integer', minimum: 3 },
        { required: ['a'] },
        { properties: { a: { type: 'string', enum: ['x', 'y'] } } },
        { maxProperties: 1 },
        { type: 'array', maxItems: 1 },
      ][i % 6] as CrdSchemaProps;
    const rand = prng(42);
    const values: Json[] = [
      null,
      'a',
      'abc',
      2,
      3,
      4.5,
      [],
      [1],
      [1, 2],
      {},
      { a: 'x' },
      { a: 'z' },
      { a: 'x', b: 1 },
      { b: 1 },
      true,
    ];
    let valid = 0;
    let invalid = 0;
    for (let i = 0; i < 400; i++) {
      const pickBranches = () =>
        Array.from({ length: 1 + Math.floor(rand() * 3) }, () => branch(Math.floor(rand() * 6)));
      const props: CrdSchemaProps = {};
      if (rand() < 0.5) props.anyOf = pickBranches();
      if (rand() < 0.5) props.oneOf = pickBranches();
      if (rand() < 0.4) props.allOf = pickBranches();
      if (rand() < 0.3) props.not = branch(Math.floor(rand() * 6));
      const schema = compileStructural({ type: 'object', properties: { v: props } });
      for (const v of values) {
        if (compare(schema, { v })) valid++;
        else invalid++;
      }
    }
    expect(valid).toBeGreaterThan(100);
    expect(invalid).toBeGreaterThan(100);
  });
});
