/**
 * The test suites of examples/any-language in their own languages, run
 * against this checkout's `watchmark serve` through run-with-watchmark.sh, as
 * docs/other-languages.md shows them:
 *
 * - Go: controller-runtime v0.25.3's envtest with USE_EXISTING_CLUSTER=true
 *   (typed Widget CRUD, a schema rejection, namespace deletion), a client-go
 *   v0.37.2 shared informer that syncs through a streaming list, and client-go
 *   configured for protobuf only (writes, reads, a 404, a watch);
 * - Python: the official kubernetes client (37.x) under pytest, including a
 *   watch with allow_watch_bookmarks up to the initial-events-end bookmark.
 *
 * The toolchains are gated like kubectl (test/helpers/tools.ts): skipped
 * loudly on a developer machine without them, a failure under CI=true. What CI
 * runs first (the commands are in docs/other-languages.md):
 *   (cd examples/any-language/go && go mod download && go test -c -o /tmp/watchmark-examples-go.test . && rm /tmp/watchmark-examples-go.test)
 *   python3 -m venv ~/.cache/watchmark-examples-venv
 *   ~/.cache/watchmark-examples-venv/bin/pip install -r examples/any-language/python/requirements.txt
 * The Go tests run with GOPROXY=off, so the test never downloads modules: a
 * missing download fails with Go's own message instead of a slow fetch.
 */
import { execFile, spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { requireTool } from '../helpers/tools.js';

const EXAMPLES = fileURLToPath(new URL('../../examples/any-language/', import.meta.url));
const SCRIPT = join(EXAMPLES, 'run-with-watchmark.sh');
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
/** The Python with kubernetes and pytest: $WATCHMARK_PYTHON, else the documented virtualenv's, else python3. */
const PYTHON_CANDIDATES = process.env.WATCHMARK_PYTHON
  ? [process.env.WATCHMARK_PYTHON]
  : [join(homedir(), '.cache/watchmark-examples-venv/bin/python'), 'python3'];

/** The first command in `candidates` that runs `args` with exit status 0, and its stdout. */
async function firstThatRuns(
  candidates: string[],
  args: string[],
): Promise<{ command: string; stdout: string } | undefined> {
  for (const command of candidates) {
    try {
      const { stdout } = await promisify(execFile)(command, args, { encoding: 'utf8' });
      return { command, stdout };
    } catch {
      // Absent, or without the packages: try the next one.
    }
  }
  return undefined;
}

const go = await firstThatRuns(['go'], ['version']);
const haveGo = requireTool('go (Go toolchain)', go !== undefined);
const python = await firstThatRuns(PYTHON_CANDIDATES, [
  '-c',
  'import kubernetes, pytest; print(kubernetes.__version__)',
]);
const havePython = requireTool(
  `a Python with kubernetes 37 and pytest (tried ${PYTHON_CANDIDATES.join(', ')}; see examples/any-language/python/requirements.txt)`,
  python?.stdout.startsWith('37.') === true,
);

interface Ended {
  code: number | null;
  output: string;
}

/** Runs run-with-watchmark.sh in `cwd` with watchmark from this checkout; stdout and stderr interleaved. */
function runScript(cwd: string, args: string[], env: Record<string, string> = {}): Promise<Ended> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT, ...args], {
      cwd,
      env: { ...process.env, WATCHMARK: `${process.execPath} --import tsx ${MAIN}`, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('examples/any-language in their own languages, against watchmark serve', () => {
  // 30 minutes: the first `go test` compiles controller-runtime, client-go and their
  // dependencies. With an empty build cache that took 20 min 39 s of wall time (6 min 15 s
  // of user CPU) on the shared 2-core machine at load average 11 to 18. CI compiles the test
  // binary before the suite (`go test -c`, see the header), and with Go's build cache
  // (~/.cache/go-build) warm this test took 36 s.
  it.skipIf(!haveGo)(
    'Go: envtest with USE_EXISTING_CLUSTER=true and a client-go shared informer pass',
    async () => {
      const ended = await runScript(
        join(EXAMPLES, 'go'),
        [
          '--crds',
          '../crds',
          '--controllers',
          'namespace,gc',
          '--',
          'env',
          'USE_EXISTING_CLUSTER=true',
          'go',
          'test',
          './...',
          '-count=1',
          '-v',
        ],
        // Modules come from the cache `go mod download` filled, never from the network.
        { GOPROXY: 'off', GOFLAGS: '-mod=readonly' },
      );
      if (ended.code !== 0) {
        throw new Error(
          `go test exited with ${ended.code} (if modules are missing: cd examples/any-language/go && go mod download):\n${ended.output}`,
        );
      }
      expect(ended.output).toMatch(
        /^envtest started against https:\/\/127\.0\.0\.1:\d+; CRDs installed: 1$/m,
      );
      for (const name of [
        'TestSharedInformerSyncsByStreamingAndFollows',
        'TestClientGoSpeaksProtobuf',
        'TestWidgetCreateGetListUpdateDelete',
        'TestWidgetSchemaRejection',
        'TestNamespaceDeletionFinishes',
      ]) {
        expect(ended.output).toMatch(new RegExp(`^--- PASS: ${name} `, 'm'));
      }
      expect(ended.output).not.toMatch(/^--- (FAIL|SKIP)/m);
      expect(ended.output).toMatch(/^ok {2}\texample\.com\/watchmark-examples\t/m);
    },
    30 * 60_000,
  );

  const pytestNames = [
    'test_widget_create_get_list_patch_delete',
    'test_widget_schema_rejection',
    'test_watch_with_bookmarks_streams_then_follows',
    'test_namespace_deletion_finishes',
  ];
  // No __pycache__ or .pytest_cache left in the checkout.
  const pytestArgs = ['-m', 'pytest', '-v', '-p', 'no:cacheprovider'];
  const pythonEnv = { PYTHONDONTWRITEBYTECODE: '1' };

  function expectPytestPassed(ended: Ended): void {
    if (ended.code !== 0) throw new Error(`pytest exited with ${ended.code}:\n${ended.output}`);
    for (const name of pytestNames) expect(ended.output).toContain(`test_widgets.py::${name} PASSED`);
    expect(ended.output).toMatch(/^=+ 4 passed in [\d.]+s =+$/m);
  }

  it.skipIf(!havePython)(
    'Python: the kubernetes client under pytest passes, on the server run-with-watchmark.sh started',
    async () => {
      const ended = await runScript(
        join(EXAMPLES, 'python'),
        [
          '--crds',
          '../crds',
          '--controllers',
          'namespace,gc',
          '--',
          python?.command ?? 'python3',
          ...pytestArgs,
        ],
        pythonEnv,
      );
      expectPytestPassed(ended);
    },
    120_000,
  );

  it.skipIf(!havePython)(
    "Python: without KUBECONFIG, conftest.py's fixture starts and stops its own server",
    async () => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ...pythonEnv,
        WATCHMARK: `${process.execPath} --import tsx ${MAIN}`,
      };
      delete env.KUBECONFIG;
      const ended = await new Promise<Ended>((resolve, reject) => {
        const child = spawn(python?.command ?? 'python3', pytestArgs, {
          cwd: join(EXAMPLES, 'python'),
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c.toString()));
        child.stderr.on('data', (c: Buffer) => (output += c.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      });
      expectPytestPassed(ended);
    },
    120_000,
  );
});
