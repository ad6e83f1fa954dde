/**
 * The updater on structured-merge-diff's own multi-applier cases (merge/multiple_appliers_test.go
 * TestMultipleAppliersSet, Apache-2.0), run at one version: objects and owned sets as smd expects.
 */
import { describe, expect, it } from 'vitest';
import { ConflictsError } from '../../../src/server/ssa/conflict.js';
import { SCALAR } from '../../../src/server/ssa/merge-schema.js';
import { type ManagerSets, updaterApply, updaterUpdate } from '../../../src/server/ssa/updater.js';
import { mapList, struct } from './schema-fixture.js';

const NODE = struct({ list: mapList(['name'], struct({ name: SCALAR, value: SCALAR })) });
const opts = { node: NODE, apiVersion: 'v1' };

type Op = { apply?: string; update?: string; object: unknown; force?: boolean };

function run(ops: Op[]): { object: unknown; managers: ManagerSets } {
  let object: unknown = {};
  const managers: ManagerSets = new Map();
  for (const op of ops) {
    if (op.apply !== undefined)
      object = updaterApply(object, op.object, managers, op.apply, op.force ?? false, opts) ?? object;
    else {
      updaterUpdate(object, op.object, managers, op.update as string, opts);
      object = op.object;
    }
  }
  return { object, managers };
}

const owned = (m: ManagerSets, name: string) => m.get(name)?.set.toString().split('\n');

describe('multiple appliers on a keyed list', () => {
  it("remove_one: an applier drops its item; the other applier's item stays", () => {
    const { object, managers } = run([
      { apply: 'apply-one', object: { list: [{ name: 'a' }, { name: 'b' }] } },
      { apply: 'apply-two', object: { list: [{ name: 'c' }] } },
      { apply: 'apply-one', object: { list: [{ name: 'a' }] } },
    ]);
    expect(object).toEqual({ list: [{ name: 'a' }, { name: 'c' }] });
    expect(owned(managers, 'apply-one')).toEqual(['.list[name="a"]', '.list[name="a"].name']);
    expect(owned(managers, 'apply-two')).toEqual(['.list[name="c"]', '.list[name="c"].name']);
  });

  it('same_value_no_conflict: both own the same item and value', () => {
    const { managers } = run([
      { apply: 'apply-one', object: { list: [{ name: 'a', value: 0 }] } },
      { apply: 'apply-two', object: { list: [{ name: 'a', value: 0 }] } },
    ]);
    const both = ['.list[name="a"]', '.list[name="a"].name', '.list[name="a"].value'];
    expect(owned(managers, 'apply-one')).toEqual(both);
    expect(owned(managers, 'apply-two')).toEqual(both);
  });

  it('change_value_yes_conflict: the second applier conflicts on the value; forced, it takes it', () => {
    const first = { apply: 'apply-one', object: { list: [{ name: 'a', value: 0 }] } };
    const second = { apply: 'apply-two', object: { list: [{ name: 'a', value: 1 }] } };
    try {
      run([first, second]);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConflictsError);
      expect((err as ConflictsError).conflicts.map((c) => [c.manager, c.path.map(String).join('')])).toEqual([
        ['apply-one', '.list[name="a"].value'],
      ]);
    }
    const { object, managers } = run([first, { ...second, force: true }]);
    expect(object).toEqual({ list: [{ name: 'a', value: 1 }] });
    expect(owned(managers, 'apply-one')).toEqual(['.list[name="a"]', '.list[name="a"].name']);
    expect(owned(managers, 'apply-two')).toEqual([
      '.list[name="a"]',
      '.list[name="a"].name',
      '.list[name="a"].value',
    ]);
  });

  it('an update takes what it changes and never conflicts; the applier keeps the rest', () => {
    const { managers } = run([
      { apply: 'apply-one', object: { list: [{ name: 'a', value: 0 }] } },
      { update: 'controller', object: { list: [{ name: 'a', value: 2 }, { name: 'b' }] } },
    ]);
    expect(owned(managers, 'apply-one')).toEqual(['.list[name="a"]', '.list[name="a"].name']);
    expect(owned(managers, 'controller')).toEqual([
      '.list[name="b"]',
      '.list[name="a"].value',
      '.list[name="b"].name',
    ]);
  });
});

describe('an atomic map (TestMultipleApplierAtomicMaps "force")', () => {
  const ATOMIC = struct({ atomicMap: struct({}, { atomic: true, values: SCALAR }) });
  const o = { node: ATOMIC, apiVersion: 'v1' };

  it('conflicts as one leaf and, forced, goes whole to the new applier', () => {
    const managers: ManagerSets = new Map();
    let object = updaterApply({}, { atomicMap: { field1: 'a' } }, managers, 'apply-one', false, o);
    expect(() =>
      updaterApply(object, { atomicMap: { field2: 'b' } }, managers, 'apply-two', false, o),
    ).toThrow(ConflictsError);
    object = updaterApply(object, { atomicMap: { field2: 'b' } }, managers, 'apply-two', true, o);
    expect(object).toEqual({ atomicMap: { field2: 'b' } });
    expect([...managers.keys()]).toEqual(['apply-two']);
    expect(owned(managers, 'apply-two')).toEqual(['.atomicMap']);
  });
});
