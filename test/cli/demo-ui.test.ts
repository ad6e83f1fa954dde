/**
 * `watchmark demo --ui` as a newcomer runs it: it prints a one-time link to
 * the live view, waits for the page, tells the story, then keeps the server
 * up until Ctrl-C.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { cookieOf, openEventStream, uiRequest } from '../helpers/ui-http.js';

describe('watchmark demo --ui', () => {
  it('prints the login link, serves the page and its stream, and stays up until interrupted', async () => {
    const demo = runCli(['demo', '--ui']);
    try {
      const line = await demo.waitForLine(/live view \(this link logs in once\): https:\/\//, 30_000);
      const link = /(https:\/\/\S+\/ui\/login\?code=\S+)/.exec(line)![1];
      const base = new URL(link).origin;
      // Without the link's session: the login form, no data.
      const anonymous = await uiRequest(`${base}/ui`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.text).not.toContain('data-testid="lanes"');

      const login = await uiRequest(link);
      expect(login.status).toBe(303);
      expect(login.headers.location).toBe('/ui');
      const cookie = cookieOf(login);
      const page = await uiRequest(`${base}/ui`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('data-testid="lanes"');
      const script = await uiRequest(`${base}/ui/app.js`, { headers: { cookie } });
      expect(script.status).toBe(200);
      expect(script.text).toContain("new EventSource('/ui/events')");
      // The link was spent.
      expect((await uiRequest(link)).status).toBe(401);

      // The page's stream opens; the demo goes on and its lanes show the 410 and the relist.
      const stream = await openEventStream(`${base}/ui/events`, { headers: { cookie } });
      try {
        await stream.waitFor((f) => f.snapshot === true, 10_000);
        await demo.waitForLine(/The live view stays up/, 60_000);
        const relisted = await stream.waitFor(
          (f) => f.lanes.some((l: any) => !l.bookmarks && l.counts.expired > 0 && l.counts.relists > 0),
          10_000,
        );
        expect(relisted.counters.relists).toBeGreaterThanOrEqual(1);
      } finally {
        stream.close();
      }
      expect(demo.stdout()).toMatch(/quiet watcher WITHOUT bookmarks .*410 Expired, then a full relist/);
      demo.child.kill('SIGINT');
      expect(await demo.exit).toBe(0);
    } finally {
      if (demo.child.exitCode === null) demo.child.kill('SIGKILL');
    }
  }, 120_000);
});
