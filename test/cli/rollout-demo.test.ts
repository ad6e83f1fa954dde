/**
 * `watchmark demo` (what `npm start` runs) as a newcomer runs it: a child
 * process that must finish by itself, exit 0, and end with a summary in
 * which the rollout's watches resumed from bookmarks while the watcher
 * without bookmarks had to relist.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('watchmark demo', () => {
  it('runs to completion on its own, exit 0, with the summary', async () => {
    const demo = runCli(['demo']);
    const code = await demo.exit;
    const out = demo.stdout();
    expect(code, `${out}\n${demo.stderr()}`).toBe(0);
    expect(demo.stderr()).toBe('');
    expect(out).toContain('deployment.apps/web created');
    expect(out).toContain('deployment.apps/web configured');
    expect(out).toMatch(/>> compacted the history at resourceVersion \d+/);
    expect(out).toMatch(/>> dropped all \d+ watch streams mid-rollout/);
    const summary = out.slice(out.indexOf('[4/4] Summary'));
    expect(summary).toMatch(/events +\d+ shown as they happened; 0 missed, 0 shown twice/);
    expect(summary).toMatch(
      /rolling update's 4 informers +lists 4 \(relists 0\).*each resumed from its last bookmark, no relist/,
    );
    expect(summary).toMatch(/quiet watcher WITH bookmarks +lists 1 \(relists 0\)/);
    expect(summary).toMatch(
      /quiet watcher WITHOUT bookmarks +lists 2 \(relists 1\).*410 Expired 1: its resourceVersion \d+ was compacted away/,
    );
  }, 60_000);
});
