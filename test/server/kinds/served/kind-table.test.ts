/**
 * A server's kind table: built-ins at start, kinds added and removed while it
 * runs, each change told to its listeners, and snapshots that change identity
 * exactly when the kinds do.
 */
import { describe, expect, it } from 'vitest';
import { KindTable } from '../../../../src/server/kinds/served/kind-table.js';
import { REGISTRY } from '../../../../src/server/kinds/served/registry.js';
import { widgetKind } from '../../fixtures/kinds.js';

describe('KindTable', () => {
  it('starts with the built-in kinds, found by URL and by apiVersion/kind', () => {
    const table = new KindTable();
    expect(table.all()).toEqual(REGISTRY);
    expect(table.findByPlural('apps', 'v1', 'deployments')?.kind).toBe('Deployment');
    expect(table.findByKind('v1', 'Pod')?.plural).toBe('pods');
    expect(table.findByKind('apps', 'Deployment')?.plural).toBe('deployments');
    expect(table.findByPlural('example.com', 'v1', 'widgets')).toBeUndefined();
  });

  it('serves an added kind, tells its listeners, and forgets it on removal', () => {
    const table = new KindTable();
    const changes: string[] = [];
    table.onChange((c) => changes.push('added' in c ? `+${c.added.plural}` : `-${c.removed.plural}`));
    const before = table.all();
    const widget = widgetKind();
    table.add(widget);
    expect(table.all()).not.toBe(before);
    expect(before).not.toContain(widget);
    expect(table.all().at(-1)).toBe(widget);
    expect(table.findByPlural('example.com', 'v1', 'widgets')).toBe(widget);
    expect(table.findByKind('example.com/v1', 'Widget')).toBe(widget);

    const during = table.all();
    expect(table.remove(widget)).toBe(true);
    expect(table.remove(widget)).toBe(false);
    expect(table.all()).not.toBe(during);
    expect(table.findByPlural('example.com', 'v1', 'widgets')).toBeUndefined();
    expect(table.findByKind('example.com/v1', 'Widget')).toBeUndefined();
    expect(changes).toEqual(['+widgets', '-widgets']);
  });

  it('refuses a kind whose URL or apiVersion/kind is taken, and leaves the table as it was', () => {
    const table = new KindTable();
    table.add(widgetKind());
    const snapshot = table.all();
    expect(() => table.add(widgetKind({ kind: 'Gadget' }))).toThrow(
      'example.com/v1/widgets is already served',
    );
    expect(() => table.add(widgetKind({ plural: 'gadgets' }))).toThrow(
      'example.com/v1/Widget is already served',
    );
    expect(() => table.add(widgetKind({ group: '', plural: 'pods', kind: 'Pod' }))).toThrow(
      '/v1/pods is already served',
    );
    expect(table.all()).toBe(snapshot);
    // Removing an equal-looking object that was never added leaves the served one alone.
    expect(table.remove(widgetKind())).toBe(false);
    expect(table.findByPlural('example.com', 'v1', 'widgets')).toBeDefined();
  });

  it('keeps two servers apart: a kind added to one table is not in another', () => {
    const a = new KindTable();
    const b = new KindTable();
    a.add(widgetKind());
    expect(b.findByPlural('example.com', 'v1', 'widgets')).toBeUndefined();
    expect(b.all()).toEqual(REGISTRY);
  });
});
