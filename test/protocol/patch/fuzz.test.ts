import { describe, expect, it } from 'vitest';
import { applyJsonPatch } from '../../../src/protocol/patch/jsonpatch.js';
import { applyMergePatch } from '../../../src/protocol/patch/merge.js';
import { applyStrategicMergePatch } from '../../../src/protocol/patch/strategic.js';
import { createThreeWayMergePatch } from '../../../src/protocol/patch/threeway.js';
import { StatusError } from '../../../src/protocol/status.js';
import { mulberry32 } from '../../helpers/random.js';

// Keys that hit merge lists, directives and awkward names alike.
const KEYS = [
  'spec',
  'metadata',
  'template',
  'containers',
  'name',
  'env',
  'ports',
  'containerPort',
  'finalizers',
  'labels',
  'image',
  'a',
  'b',
  '$patch',
  '$retainKeys',
  '$setElementOrder/containers',
  '$deleteFromPrimitiveList/finalizers',
  '$setElementOrder/env',
  '$setElementOrder',
  '__proto__',
  '~1/',
];
const PRIMITIVES: unknown[] = [
  null,
  0,
  1,
  80,
  'c',
  'd',
  'name',
  'replace',
  'delete',
  'merge',
  true,
  false,
  '',
];

class Gen {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  value(depth: number): unknown {
    const r = this.next();
    if (depth <= 0 || r < 0.35) return this.pick(PRIMITIVES);
    if (r < 0.55) return Array.from({ length: this.int(4) }, () => this.value(depth - 1));
    return this.object(depth);
  }
  object(depth: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    for (let i = this.int(5); i > 0; i--) {
      Object.defineProperty(obj, this.pick(KEYS), {
        value: this.value(depth - 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return obj;
  }
  pointer(): string {
    return Array.from(
      { length: this.int(4) },
      () => '/' + this.pick([...KEYS, '0', '1', '-', '01', '~', '~0', '9']),
    ).join('');
  }
  jsonPatch(): unknown {
    if (this.next() < 0.05) return this.value(2);
    return Array.from({ length: this.int(5) }, () => {
      if (this.next() < 0.05) return this.value(1);
      const op: Record<string, unknown> = {
        op: this.pick(['add', 'remove', 'replace', 'move', 'copy', 'test', 'nope']),
      };
      if (this.next() < 0.95) op.path = this.next() < 0.05 ? 'bad' : this.pointer();
      if (this.next() < 0.7) op.from = this.pointer();
      if (this.next() < 0.8) op.value = this.value(2);
      return op;
    });
  }
}

/** Runs `fn` and fails unless it returns or throws a StatusError with a 4xx code. */
function onlyStatusErrors(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    expect([400, 413, 415, 422]).toContain(err.code);
    return undefined;
  }
}

const ROUNDS = 800;
const KINDS = ['Pod', 'Deployment', 'ConfigMap', 'Widget'];

describe('patch fuzz (seeded)', () => {
  it.each([1, 2, 3])(
    'merge, JSON and strategic patches only ever throw StatusError, and stay pure (seed %i)',
    (seed) => {
      const g = new Gen(mulberry32(seed));
      for (let i = 0; i < ROUNDS; i++) {
        const target = g.next() < 0.9 ? g.object(4) : g.value(2);
        const patch = g.value(4);
        const ops = g.jsonPatch();
        const kind = g.pick(KINDS);
        const snapshot = structuredClone([target, patch, ops]);
        onlyStatusErrors(() => applyMergePatch(target, patch));
        onlyStatusErrors(() => applyJsonPatch(target, ops));
        onlyStatusErrors(() => applyStrategicMergePatch(target, patch, kind));
        expect([target, patch, ops]).toEqual(snapshot);
      }
    },
  );

  it.each([4, 5])(
    'three-way patches only ever throw StatusError, and apply cleanly when built (seed %i)',
    (seed) => {
      const g = new Gen(mulberry32(seed));
      for (let i = 0; i < ROUNDS; i++) {
        const [original, modified, current] = [g.object(4), g.object(4), g.object(4)];
        const kind = g.pick(KINDS);
        const snapshot = structuredClone([original, modified, current]);
        const patch = onlyStatusErrors(() => createThreeWayMergePatch(original, modified, current, kind));
        if (patch !== undefined) onlyStatusErrors(() => applyStrategicMergePatch(current, patch, kind));
        expect([original, modified, current]).toEqual(snapshot);
      }
    },
  );
});
