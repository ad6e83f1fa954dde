import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readMachineCpu, stealPercent } from '../../src/process/index.js';

describe('machine CPU from /proc/stat', () => {
  it.skipIf(!existsSync('/proc/stat'))('reads cumulative busy, steal and total time', () => {
    const a = readMachineCpu();
    expect(a).toBeDefined();
    expect(a!.totalMs).toBeGreaterThanOrEqual(a!.busyMs + a!.stealMs);
    expect(a!.busyMs).toBeGreaterThan(0);
    const b = readMachineCpu();
    expect(b!.totalMs).toBeGreaterThanOrEqual(a!.totalMs);
  });

  it('steal is the share of all CPU time between two readings', () => {
    const a = { busyMs: 1_000, stealMs: 100, totalMs: 10_000 };
    expect(stealPercent(a, { busyMs: 2_000, stealMs: 250, totalMs: 11_000 })).toBe(15);
    expect(stealPercent(a, { busyMs: 1_000, stealMs: 100, totalMs: 10_000 })).toBeUndefined();
    expect(stealPercent(undefined, a)).toBeUndefined();
  });
});
