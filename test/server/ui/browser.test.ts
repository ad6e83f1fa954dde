/**
 * The live view in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, against a real server (TLS, token auth) with the simulated
 * cluster and watchers of the real client library. It tells the bookmark
 * story through the page: apply a Deployment, see the lanes and bookmarks,
 * press "Compact now" and "Drop all watches", and see the watcher without
 * bookmarks get 410 and relist while the watchers with bookmarks resume.
 *
 * `UPDATE_SCREENSHOT=1` (npm run docs:ui-screenshot) writes docs/ui.png.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../../src/client/client.js';
import type { Watcher } from '../../../src/client/watch/watcher.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { buildDeployment, type Simulation, startSimulation } from '../../../src/sim/index.js';
import { chromiumForTests, launchChromium } from '../../helpers/browser.js';
import { tempDirForFile } from '../../helpers/lifecycle.js';

// The functions given to page.waitForFunction run in the page, where `document` exists.
declare const document: any;

const chromiumPath = await chromiumForTests();
const SCREENSHOT = fileURLToPath(new URL('../../../docs/ui.png', import.meta.url));
const NAMESPACE = 'shop';

describe.skipIf(chromiumPath === undefined)('the live view at /ui, in Chromium', () => {
  let dir: string;
  let server: RunningServer;
  let sim: Simulation;
  const clients: KubeClient[] = [];
  const watchers: Watcher[] = [];
  const drains: Promise<void>[] = [];
  let browser: Browser;
  let page: Page;

  const tempDir = tempDirForFile('watchmark-ui-');
  beforeAll(async () => {
    dir = tempDir();
    const kubeconfig = join(dir, 'kubeconfig');
    server = await startServer({
      disableAdmissionPlugins: ['ServiceAccount'],
      ui: true,
      kubeconfigOut: kubeconfig,
      bookmarkInterval: 300,
      bookmarkLead: 100,
      compactionInterval: 0,
    });
    sim = await startSimulation({
      kubeconfig,
      nodes: 2,
      timing: { pullMs: 100, createMs: 50, startMs: 50, readyMs: 100 },
    });
    // Two quiet watchers of the same selection (nothing carries app=db), told apart by user agent.
    for (const [userAgent, bookmarks] of [
      ['quiet-watcher-with-bookmarks', true],
      ['quiet-watcher-without-bookmarks', false],
    ] as const) {
      const kube = await KubeClient.load({ kubeconfig, userAgent });
      clients.push(kube);
      const w = kube.watcher(
        'pods',
        { namespace: NAMESPACE, labelSelector: 'app=db' },
        { bookmarks, backoff: { initialMs: 50, maxMs: 200 } },
      );
      watchers.push(w);
      drains.push(drain(w));
    }
    browser = await launchChromium(chromiumPath!);
    const context = await browser.newContext({
      ignoreHTTPSErrors: true, // the server's own CA signed its certificate
      viewport: { width: 1360, height: 900 },
    });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    for (const w of watchers) w.stop();
    await Promise.all(drains);
    for (const c of clients) await c.close();
    await sim?.stop();
    await server?.close();
  });

  it('shows the lanes and bookmarks, then a 410 and relist for the watcher without bookmarks only', async () => {
    // The one-time link logs in and lands on the page.
    await page.goto(server.uiLoginUrl()!);
    expect(new URL(page.url()).pathname).toBe('/ui');
    await page.waitForSelector('[data-testid="connection"][data-state="live"]');
    const withBm = '[data-user-agent="quiet-watcher-with-bookmarks"]';
    const withoutBm = '[data-user-agent="quiet-watcher-without-bookmarks"]';
    await page.waitForSelector(`${withBm}[data-bookmarks="true"]`);
    await page.waitForSelector(`${withoutBm}[data-bookmarks="false"]`);

    // Apply a Deployment: the simulated controllers and kubelets make it run; bookmarks follow.
    const kube = clients[0];
    await kube
      .resource('namespaces')
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    await kube.resource('deployments', NAMESPACE).create(deployment());
    await page.waitForSelector(`${withBm} [data-mark="bookmark"]`);
    await page.waitForSelector('[data-resource="pods"] [data-mark="event"]');
    expect(await page.locator(`${withoutBm} [data-mark="bookmark"]`).count()).toBe(0);

    // Compact: the history window's left edge jumps to now.
    const before = Number(await page.getAttribute('[data-testid="history"]', 'data-oldest'));
    await page.click('[data-testid="compact"]');
    await page.waitForFunction(
      (b) => Number(document.querySelector('[data-testid="history"]')?.getAttribute('data-oldest')) > b,
      before,
    );
    const compacted = Number(await page.getAttribute('[data-testid="history"]', 'data-oldest'));
    // The watcher without bookmarks still holds a version from before: drawn as stale.
    await page.waitForSelector(`${withoutBm}[data-stale="true"]`);
    // Every open lane with bookmarks gets one at or past the compaction before the drop.
    await page.waitForFunction(
      (rv) =>
        [...document.querySelectorAll('[data-lane-id][data-bookmarks="true"]:not([data-open="0"])')].every(
          (lane) => Number(lane.getAttribute('data-rv')) >= rv,
        ),
      compacted,
      { timeout: 15_000 },
    );

    const openBefore = await page.$$eval('[data-lane-id]:not([data-open="0"])', (lanes) =>
      lanes.map((l) => l.getAttribute('data-lane-id')),
    );
    await page.click('[data-testid="drop"]');
    await page.waitForSelector(`${withoutBm}[data-expired="1"][data-relists="1"]:not([data-open="0"])`, {
      timeout: 15_000,
    });
    await page.waitForSelector(`${withBm}[data-resumes="1"]:not([data-open="0"])`);
    expect(await page.getAttribute(withBm, 'data-expired')).toBe('0');
    expect(await page.locator(`${withoutBm} [data-mark="expired"]`).count()).toBe(1);
    expect(await page.locator(`${withoutBm} [data-mark="relist"]`).count()).toBe(1);
    expect(await page.textContent(`${withoutBm} .steps`)).toMatch(
      /410 Expired at \d+ → LIST at \d+ \(relist\) → watch from \d+/,
    );
    expect(await page.textContent(`${withBm} .steps`)).toMatch(/dropped → resume from \d+ \(bookmark\)/);
    // The simulation's informers ask for bookmarks too: every lane with bookmarks open before
    // the drop is open again, having resumed, none relisted.
    await page.waitForFunction(
      (ids) =>
        ids.every((id: string) => {
          const lane = document.querySelector(`[data-lane-id="${id}"]`);
          if (lane?.getAttribute('data-bookmarks') !== 'true') return true;
          return (
            lane.getAttribute('data-open') !== '0' &&
            Number(lane.getAttribute('data-resumes')) >= 1 &&
            lane.getAttribute('data-expired') === '0'
          );
        }),
      openBefore,
      { timeout: 15_000 },
    );
    const notes = await page.textContent('[data-testid="notes"]');
    expect(notes).toMatch(/compacted the history at resourceVersion \d+/);
    expect(notes).toMatch(/dropped \d+ watch streams/);

    const path = process.env.UPDATE_SCREENSHOT ? SCREENSHOT : join(dir, 'ui.png');
    await page.screenshot({ path, fullPage: true });
  });

  it('answers an anonymous visitor with the login form, never data, and takes the token once', async () => {
    const anonymous = await browser.newContext({ ignoreHTTPSErrors: true });
    try {
      const p = await anonymous.newPage();
      const answer = await p.goto(`${server.url}/ui`);
      expect(answer?.status()).toBe(401);
      expect(await p.locator('[data-testid="lanes"]').count()).toBe(0);
      // A spent login link does not open a second session.
      const link = server.uiLoginUrl()!;
      await page.goto(link);
      expect((await p.goto(link))?.status()).toBe(401);
      await p.fill('input[name="token"]', server.token!);
      await p.click('button[type="submit"]');
      await p.waitForSelector('[data-testid="connection"][data-state="live"]');
      expect(new URL(p.url()).pathname).toBe('/ui');
    } finally {
      await anonymous.close();
    }
  });
});

function deployment() {
  return buildDeployment('web', { namespace: NAMESPACE, labels: { app: 'web' }, replicas: 3 });
}

async function drain(w: Watcher): Promise<void> {
  for await (const _ of w) {
    // Only the lanes matter here.
  }
}
