/**
 * A short run of the side-by-side (compat-run.ts has the scenario; the docs
 * show a full one): client-node's informer and the drop-in, each with the
 * restart-on-error handler, through watch cuts, a history window shorter
 * than their watches and compactions. The drop-in must miss no event, end
 * running, and relist no more than client-node.
 */
import { describe, expect, it } from 'vitest';
import { runCompat, table } from './compat-run.js';

describe('side by side through cuts, a short history window and compactions', () => {
  it('the drop-in misses nothing, keeps running, and relists no more than client-node', async () => {
    const opts = { seconds: 8, scale: 30 };
    const theirs = await runCompat('client-node', opts);
    const ours = await runCompat('drop-in', opts);
    const shown = table([theirs, ours], opts);
    expect(ours.missed, shown).toBe(0);
    expect(ours.running, shown).toBe(true);
    expect(ours.lists, shown).toBeLessThanOrEqual(theirs.lists);
    expect(ours.errors, shown).toBeGreaterThan(0);
  }, 120_000);
});
