/**
 * No command may exit 0 after a failure it did not recover from. Each client
 * command against each way a server can fail: nothing listening, a server
 * that answers 500 to everything, one that accepts connections and never
 * answers, a TLS certificate the kubeconfig does not trust, and a token the
 * server refuses. Every run must end non-zero with a first line in kubectl's
 * shape (`error: ...` or `Error from server (...)`), a URL with its scheme
 * where one is named, and no stack trace.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { type SilentServer, startSilentServer } from '../helpers/silent-server.js';

let dir: string;
let manifest: string;
let closedPort: string;
let failing: Server;
let failingUrl: string;
let silent: SilentServer;
let real: RunningServer;
let realKubeconfig: string;

const tempDir = tempDirForFile('watchmark-failures-');
beforeAll(async () => {
  dir = tempDir();
  manifest = join(dir, 'dep.yaml');
  await writeFile(
    manifest,
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec: {containers: [{name: web, image: nginx}]}',
      '',
    ].join('\n'),
  );
  // A port nothing listens on: bound, then released.
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise((resolve) => probe.close(resolve));

  failing = createHttpServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('the database is on fire\n');
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as { port: number }).port}`;
  silent = await startSilentServer();
  realKubeconfig = join(dir, 'real.kubeconfig');
  real = await startServer({
    disableAdmissionPlugins: ['ServiceAccount'],
    kubeconfigOut: realKubeconfig,
    compactionInterval: 0,
  });
});

afterAll(async () => {
  await real?.close();
  await silent?.close();
  await new Promise((resolve) => failing?.close(resolve));
});

/** Every client command, with the flags each failure needs. */
function commands(extra: string[], watchFor = '1s'): Array<[string, string[]]> {
  return [
    [`watch --for ${watchFor}`, ['watch', 'pods', '--for', watchFor, ...extra]],
    ['watch --exit-on-error', ['watch', 'pods', '--exit-on-error', ...extra]],
    ['apply -f', ['apply', '-f', manifest, ...extra]],
    ['rollout -f', ['rollout', '-f', manifest, ...extra]],
    ['rollout status', ['rollout', 'status', 'deployment/web', ...extra]],
  ];
}

async function expectFailure(args: string[], first: RegExp): Promise<void> {
  const run = runCli(args);
  const code = await run.exit;
  const stderr = run.stderr();
  const lines = stderr.split('\n').filter(Boolean);
  const last = lines.at(-1) ?? '';
  expect(code, `watchmark ${args.join(' ')}: stderr ${stderr}`).toBe(1);
  // The command's own error is its last line; a retrying watch prints one line per failure before it.
  expect(last, stderr).toMatch(/^(error: |Error from server \()/);
  expect(last, stderr).toMatch(first);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr).not.toMatch(/(?<![a-z])(GET|POST|PATCH|PUT) 127\.0\.0\.1/);
}

describe('every command fails loudly, with a non-zero exit', () => {
  const servers: Array<[string, () => string, string[], RegExp, string?]> = [
    ['nothing listening', () => closedPort, [], /ECONNREFUSED/],
    ['a server answering 500', () => failingUrl, [], /the database is on fire/],
    // The watch runs past its first request's deadline, so that the timeout is its last failure.
    [
      'a server that never answers',
      () => silent.url,
      ['--request-timeout', '1s'],
      /no answer within 1/,
      '2s',
    ],
  ];
  for (const [what, url, flags, first, watchFor] of servers) {
    it(`against ${what}`, async () => {
      await Promise.all(
        commands(['--server', url(), ...flags], watchFor).map(([, args]) => expectFailure(args, first)),
      );
    });
  }

  it('against a server whose certificate the kubeconfig does not trust', async () => {
    const text = await readFile(realKubeconfig, 'utf8');
    const untrusting = join(dir, 'untrusting.kubeconfig');
    await writeFile(untrusting, text.replace(/certificate-authority-data: \S+/, ''), { mode: 0o600 });
    await Promise.all(
      commands(['--kubeconfig', untrusting]).map(([, args]) =>
        expectFailure(args, /self-signed certificate|unable to verify|certificate/),
      ),
    );
  });

  it('with a certificate authority that is not PEM: refused before any request, even by a plain watch', async () => {
    const text = await readFile(realKubeconfig, 'utf8');
    const garbled = join(dir, 'garbled-ca.kubeconfig');
    const notPem = Buffer.from('not a certificate').toString('base64');
    await writeFile(
      garbled,
      text.replace(/certificate-authority-data: \S+/, `certificate-authority-data: ${notPem}`),
      {
        mode: 0o600,
      },
    );
    const first = /^error: certificate-authority-data of cluster "\S+" holds no PEM block /;
    // A plain `watch` (no --for) retries what may heal; this cannot, so it must end by itself.
    const all = [
      ...commands(['--kubeconfig', garbled]),
      ['watch', ['watch', 'pods', '--kubeconfig', garbled]],
    ];
    await Promise.all(
      all.map(async ([, args]) => {
        const run = runCli(args as string[]);
        expect(await run.exit).toBe(1);
        expect(run.stderr().split('\n').filter(Boolean)).toEqual([expect.stringMatching(first)]);
      }),
    );
  });

  it('against a server that refuses the token', async () => {
    const text = await readFile(realKubeconfig, 'utf8');
    const wrong = join(dir, 'wrong-token.kubeconfig');
    await writeFile(wrong, text.replace(/token: \S+/, 'token: not-the-token'), { mode: 0o600 });
    await Promise.all(
      commands(['--kubeconfig', wrong]).map(([, args]) => expectFailure(args, /Unauthorized/)),
    );
  });

  it('"." and ".." as a name or namespace: one line and exit 1 before any request, even from a plain watch', async () => {
    const cases: Array<[string[], string]> = [
      [['watch', 'pods', '-n', '..'], `error: invalid namespace "..": may not be '..'`],
      [['rollout', 'status', 'deployment/..'], `error: invalid resource name "..": may not be '..'`],
      [['rollout', 'status', 'deployment/web', '-n', '.'], `error: invalid namespace ".": may not be '.'`],
    ];
    await Promise.all(
      cases.map(async ([args, line]) => {
        const run = runCli([...args, '--kubeconfig', realKubeconfig]);
        expect(await run.exit).toBe(1);
        expect(run.stderr().split('\n').filter(Boolean)).toEqual([line]);
      }),
    );
  });

  it('a missing Deployment: rollout status says so and exits 1', async () => {
    await expectFailure(
      ['rollout', 'status', 'deployment/nope', '--kubeconfig', realKubeconfig],
      /Error from server \(NotFound\): deployments\.apps "nope" not found/,
    );
  });
});

describe('watch keeps retrying until --for ends', () => {
  it('prints each failure as one line, and exits 1 because it never synced', async () => {
    const run = runCli(['watch', 'pods', '--server', closedPort, '--for', '3s']);
    expect(await run.exit).toBe(1);
    const lines = run.stderr().split('\n').filter(Boolean);
    // Backoff 0.8 s doubling: at least two failures in 3 s, each one line.
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(/^error: list failed: .*\(retrying\)$/);
    expect(lines.at(-1)).toMatch(/^error: the watch did not sync within 3s; last failure: list failed: /);
  });
});
