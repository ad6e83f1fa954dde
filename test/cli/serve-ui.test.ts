/**
 * `watchmark serve` serves the live view by default and prints its one-time
 * link after the ready line; `--no-ui` leaves /ui unserved.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { uiRequest } from '../helpers/ui-http.js';

async function stop(run: ReturnType<typeof runCli>): Promise<number | null> {
  run.child.kill('SIGTERM');
  return run.exit;
}

describe('watchmark serve and /ui', () => {
  it('prints a one-time link to the live view that opens the page once', async () => {
    const serve = runCli(['serve']);
    try {
      const ready = await serve.waitForLine(/^watchmark API server ready at /);
      const base = /ready at (\S+)/.exec(ready)![1];
      const line = await serve.waitForLine(/^live view/);
      expect(line).toMatch(
        new RegExp(`^live view \\(this link logs in once\\): ${base}/ui/login\\?code=[\\w-]+$`),
      );
      const link = line.slice(line.indexOf(': ') + 2);
      expect((await uiRequest(link)).status).toBe(303);
      expect((await uiRequest(link)).status).toBe(401);
      expect(await stop(serve)).toBe(0);
    } finally {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    }
  });

  it('serves no /ui with --no-ui', async () => {
    const serve = runCli(['serve', '--no-ui', '--insecure-no-auth', '--insecure-http']);
    try {
      const ready = await serve.waitForLine(/^watchmark API server ready at /);
      const base = /ready at (\S+)/.exec(ready)![1];
      expect((await uiRequest(`${base}/ui`)).status).toBe(404);
      expect(await stop(serve)).toBe(0);
      expect(serve.stdout()).not.toContain('live view');
    } finally {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
    }
  });
});
