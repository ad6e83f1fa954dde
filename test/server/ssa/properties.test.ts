/**
 * Properties of field ownership over seeded random Deployment-like objects (a small PRNG, no
 * dependency): applying twice is a no-op; apply then an empty apply leaves only what others own;
 * an update never conflicts and its writer owns what it changed; merge keeps the right's fields.
 */
import { describe, expect, it } from 'vitest';
import { compare } from '../../../src/server/ssa/compare.js';
import { FieldSet } from '../../../src/server/ssa/field-set.js';
import { fieldsV1ToSet } from '../../../src/server/ssa/fields-v1.js';
import { applyConfiguration, recordUpdate } from '../../../src/server/ssa/index.js';
import { merge } from '../../../src/server/ssa/merge.js';
import { fieldElement as f } from '../../../src/server/ssa/path-element.js';
import { toFieldSet } from '../../../src/server/ssa/to-field-set.js';
import { DEPLOYMENT } from './schema-fixture.js';

type Obj = Record<string, any>;

/** mulberry32: a small seeded PRNG. */
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

function gen(rand: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const some = <T>(xs: readonly T[]): T[] => xs.filter(() => rand() < 0.5);
  const chance = (p: number) => rand() < p;
  return function config(): Obj {
    const spec: Obj = {};
    if (chance(0.7)) spec.replicas = 1 + Math.floor(rand() * 4);
    if (chance(0.3)) spec.paused = chance(0.5);
    if (chance(0.5)) spec.selector = { matchLabels: { app: pick(['web', 'api']) } };
    const names = some(['nginx', 'sidecar', 'init']);
    if (names.length > 0 || chance(0.3)) {
      const podSpec: Obj = {};
      if (names.length > 0) {
        podSpec.containers = names.map((name) => {
          const c: Obj = { name };
          if (chance(0.8)) c.image = `${name}:${pick(['1', '2', '3'])}`;
          const ports = some([
            { containerPort: 80, protocol: 'TCP' },
            { containerPort: 443, protocol: 'TCP' },
            { containerPort: 53, protocol: 'UDP' },
          ]);
          if (ports.length > 0)
            c.ports = ports.map((p) => (chance(0.3) ? { ...p, name: `p${p.containerPort}` } : p));
          const env = some(['A', 'B', 'C']);
          if (env.length > 0) c.env = env.map((e) => ({ name: e, value: pick(['x', 'y']) }));
          if (chance(0.3)) c.args = some(['-a', '-b', '-c']).concat('-z');
          return c;
        });
      }
      if (chance(0.3)) podSpec.nodeSelector = { zone: pick(['a', 'b']) };
      if (chance(0.3)) podSpec.extra = { deep: { x: pick([1, 2]) }, list: [pick([1, 2])] };
      if (Object.keys(podSpec).length > 0) spec.template = { spec: podSpec };
    }
    const labels = Object.fromEntries(some(['a', 'b', 'c', 'd']).map((k) => [k, pick(['1', '2'])]));
    const metadata: Obj = { name: 'web' };
    if (Object.keys(labels).length > 0) metadata.labels = labels;
    const finalizers = some(['f1', 'f2', 'f3']);
    if (finalizers.length > 0) metadata.finalizers = finalizers;
    const out: Obj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata };
    if (Object.keys(spec).length > 0) out.spec = spec;
    return out;
  };
}

const dep = { node: DEPLOYMENT, apiVersion: 'apps/v1', kind: 'Deployment' };
const T1 = new Date('2026-01-01T00:00:01Z');
const T2 = new Date('2026-01-01T00:00:02Z');
const T3 = new Date('2026-01-01T00:00:03Z');
const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

/** Nulls and emptied maps/lists dropped, as decoding into kube's Go types drops them. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v === null || typeof v !== 'object') return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    out[k] = dropNulls(x);
  }
  return out;
}

const NEVER_OWNED = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata'), f('name')],
  [f('metadata'), f('managedFields')],
);

function owned(entries: Obj[] | undefined, except?: string): FieldSet {
  let s = new FieldSet();
  for (const e of entries ?? []) if (e.manager !== except) s = s.union(fieldsV1ToSet(e.fieldsV1));
  return s;
}

describe('properties over seeded configurations', () => {
  it('applying the same configuration twice is a no-op (same object, same entries, no new time)', () => {
    for (const seed of SEEDS) {
      const config = gen(prng(seed))();
      const first = applyConfiguration({
        ...dep,
        live: undefined,
        config,
        manager: 'a',
        force: false,
        now: T1,
      });
      const second = applyConfiguration({
        ...dep,
        live: first.object,
        config,
        manager: 'a',
        force: false,
        now: T2,
      });
      expect(second.noop, `seed ${seed}`).toBe(true);
      expect(second.object, `seed ${seed}`).toEqual(first.object);
    }
  });

  it('apply, another manager applies, then an empty apply by the first leaves only what others own', () => {
    for (const seed of SEEDS) {
      const config = gen(prng(seed));
      const a = config();
      const b = config();
      let live = applyConfiguration({
        ...dep,
        live: undefined,
        config: a,
        manager: 'a',
        force: false,
        now: T1,
      }).object;
      live = applyConfiguration({ ...dep, live, config: b, manager: 'b', force: true, now: T2 }).object;
      const r = applyConfiguration({
        ...dep,
        live,
        config: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } },
        manager: 'a',
        force: false,
        now: T3,
      });
      const entries = r.managedFields as Obj[] | undefined;
      expect(
        entries?.some((e) => e.manager === 'a'),
        `seed ${seed}`,
      ).toBeFalsy();
      const left = toFieldSet(dropNulls(r.object), DEPLOYMENT).leaves().difference(NEVER_OWNED);
      const stray = left.difference(owned(entries));
      expect(stray.toString(), `seed ${seed}`).toBe('');
    }
  });

  it('an update never conflicts, and its writer owns every leaf it changed or added', () => {
    for (const seed of SEEDS) {
      const config = gen(prng(seed));
      let live: Obj = applyConfiguration({
        ...dep,
        live: undefined,
        config: config(),
        manager: 'a',
        force: false,
        now: T1,
      }).object;
      live = { ...live, metadata: { ...live.metadata, uid: 'u' } };
      live = applyConfiguration({
        ...dep,
        live,
        config: config(),
        manager: 'b',
        force: true,
        now: T2,
      }).object;
      const next = {
        ...config(),
        metadata: { ...config().metadata, uid: 'u', managedFields: live.metadata.managedFields },
      };
      const r = recordUpdate({ ...dep, live, next, manager: 'writer', now: T3 });
      const c = compare(
        dropNulls({ ...live, metadata: { ...live.metadata, managedFields: undefined } }),
        { ...next, metadata: { ...next.metadata, managedFields: undefined } },
        DEPLOYMENT,
      );
      const writer = owned((r.managedFields as Obj[]).filter((e) => e.manager === 'writer'));
      const changed = c.modified.union(c.added).leaves().recursiveDifference(NEVER_OWNED);
      expect(changed.difference(writer).toString(), `seed ${seed}`).toBe('');
      // Nobody else keeps a field the writer changed.
      expect(
        owned(r.managedFields as Obj[], 'writer')
          .intersection(c.modified)
          .toString(),
        `seed ${seed}`,
      ).toBe('');
    }
  });

  it('toFieldSet of merge(a, b) covers toFieldSet(b)', () => {
    for (const seed of SEEDS) {
      const config = gen(prng(seed));
      const a = config();
      const b = config();
      const merged = merge(a, b, DEPLOYMENT);
      expect(
        toFieldSet(b, DEPLOYMENT).difference(toFieldSet(merged, DEPLOYMENT)).toString(),
        `seed ${seed}`,
      ).toBe('');
    }
  });
});
