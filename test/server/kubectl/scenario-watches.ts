/** The watch step of the kubectl conformance scenario (scenario.ts): watches of every shape at once. */
import { expect } from 'vitest';
import { expectOk, tableRows } from './expect.js';
import type { ScenarioContext } from './scenario.js';

/**
 * Watches, all open at once: `get cm -w --output-watch-events` sees
 * ADDED then MODIFIED; `get pods -w` (which asks for no bookmarks) never
 * prints one; a raw watch with allowWatchBookmarks gets the initial-events-end
 * BOOKMARK after its ADDED events, then a BOOKMARK carrying a resourceVersion
 * newer than anything it saw.
 */
export async function watches({ kubectl, touch }: ScenarioContext): Promise<void> {
  const ns = kubectl.namespace;
  const cmWatch = kubectl.start(['-n', ns, 'get', 'configmaps', '-w', '--output-watch-events']);
  const podWatch = kubectl.start(['-n', ns, 'get', 'pods', '-w']);
  const raw = kubectl.start([
    'get',
    '--raw',
    `/api/v1/namespaces/${ns}/pods?watch=1&allowWatchBookmarks=true&timeoutSeconds=3`,
  ]);
  // Each has listed (and so is watching from the list's resourceVersion) once it printed the list.
  await cmWatch.waitFor('the configmap list', (out) => out.includes('cm-5'));
  await podWatch.waitFor('the pod list', (out) => out.includes('py'));
  await raw.waitFor('the initial ADDED events', (out) => out.split('\n').length > 2);
  // A write well within the raw watch's 3 s, however slow the kubectls below are under load,
  // so that its bookmarks have a newer resourceVersion to carry.
  await touch();

  expectOk(
    await kubectl.inNamespace(['create', 'configmap', 'w-1', '--from-literal=a=1']),
    'configmap/w-1 created\n',
  );
  expectOk(await kubectl.inNamespace(['label', 'configmap', 'w-1', 'step=2']), 'configmap/w-1 labeled\n');
  expectOk(await kubectl.inNamespace(['run', 'pw', '--image=nginx:1']), 'pod/pw created\n');

  await cmWatch.waitFor('MODIFIED w-1', (out) => /^MODIFIED\s+w-1\s/m.test(out));
  await podWatch.waitFor('the new pod', (out) => /^pw\s/m.test(out));
  const rawDone = await raw.done; // the server ends it after timeoutSeconds=3
  const cms = await cmWatch.stop();
  const pods = await podWatch.stop();

  // Both were still watching when stopped: kubectl's interrupt handler exits 1 on SIGTERM,
  // and neither printed an error.
  for (const stopped of [cms, pods]) {
    expect({ code: stopped.code, signal: stopped.signal, stderr: stopped.stderr }, stopped.command).toEqual({
      code: 1,
      signal: null,
      stderr: '',
    });
  }
  const cmRows = tableRows(cms.stdout).map((row) => row.slice(0, 2));
  expect(cmRows).toEqual([
    ['EVENT', 'NAME'],
    ...[1, 2, 3, 4, 5].map((i) => ['ADDED', `cm-${i}`]),
    ['ADDED', 'w-1'],
    ['MODIFIED', 'w-1'],
  ]);

  expect(pods.stdout).not.toMatch(/BOOKMARK/);
  expect(tableRows(pods.stdout).map((row) => row[0])).toEqual(['NAME', 'px', 'py', 'pw']);

  expect({ code: rawDone.code, stderr: rawDone.stderr }).toEqual({ code: 0, stderr: '' });
  const events = rawDone.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
  const seen = events.filter((e) => e.type !== 'BOOKMARK');
  // pw too when kubectl created it within the 3 s.
  const changes = seen.map((e) => `${e.type} ${e.object.metadata.name}`);
  expect([
    ['ADDED px', 'ADDED py'],
    ['ADDED px', 'ADDED py', 'ADDED pw'],
  ]).toContainEqual(changes);
  // Some bookmark must carry a resourceVersion newer than every event before it (the touch moved
  // it on). The initial ADDED events come in key order, each with its object's own version.
  const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
  const bookmarks = events.filter((e) => e.type === 'BOOKMARK');
  expect(bookmarks.length).toBeGreaterThan(0);
  // A watch without a resourceVersion is a streaming list (SetListOptionsDefaults): its initial
  // ADDED events end with a BOOKMARK annotated k8s.io/initial-events-end, as kube-apiserver 1.37
  // sends it; the later (periodic) bookmarks carry only their resourceVersion.
  expect(events.findIndex((e) => e.type === 'BOOKMARK')).toBe(2);
  for (const [i, b] of bookmarks.entries()) {
    expect(b.object).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: {
        resourceVersion: expect.stringMatching(/^[1-9]\d*$/),
        ...(i === 0 ? { annotations: { 'k8s.io/initial-events-end': 'true' } } : {}),
      },
    });
  }
  const progressed = events.some(
    (e, i) => e.type === 'BOOKMARK' && i > 0 && rvs[i] > Math.max(...rvs.slice(0, i)),
  );
  expect(progressed, 'a BOOKMARK newer than every event before it').toBe(true);
}
