/**
 * examples/any-language/run-with-watchmark.sh, as a test suite in another
 * language uses it: serve in the background, the command run once the
 * kubeconfig is there (with the real kubectl), the command's exit status
 * passed through, the server gone when the script returns, and a serve
 * that cannot start reported with its own error line.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { tempDirForFile } from '../helpers/lifecycle.js';
import { findKubectls, requireTool } from '../helpers/tools.js';
import { widgetCrd } from '../helpers/widget.js';

const SCRIPT = fileURLToPath(new URL('../../examples/any-language/run-with-watchmark.sh', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const kubectls = await findKubectls();
const haveKubectl = requireTool('kubectl', kubectls.length > 0);
const tempDir = tempDirForFile('watchmark-run-script-');

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the script with watchmark from this checkout and kubectl first on PATH. */
function runScript(args: string[]): Promise<Ended> {
  const env = {
    ...process.env,
    WATCHMARK: `${process.execPath} --import tsx ${MAIN}`,
    PATH: kubectls[0] ? `${join(kubectls[0].path, '..')}:${process.env.PATH}` : process.env.PATH,
  };
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('examples/any-language/run-with-watchmark.sh', () => {
  it.skipIf(!haveKubectl)(
    'runs kubectl get ns against a fresh server and exits with its status',
    async () => {
      const ended = await runScript(['--controllers', 'namespace,gc', '--', 'kubectl', 'get', 'ns']);
      expect(ended.stderr).toBe('');
      expect(ended.code).toBe(0);
      const names = ended.stdout
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/\s+/)[0]);
      expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    },
  );

  it.skipIf(!haveKubectl)(
    'passes the command its CRDs and the command status through; the server is gone afterwards',
    async () => {
      const dir = tempDir();
      const crds = join(dir, 'crds');
      await mkdir(crds);
      await writeFile(join(crds, 'widgets.yaml'), YAML.stringify(widgetCrd()));
      const kept = join(dir, 'kept-kubeconfig');
      const ended = await runScript([
        '--crds',
        crds,
        '--',
        'sh',
        '-c',
        `cp "$KUBECONFIG" ${kept} && kubectl get widgets -A && exit 3`,
      ]);
      expect(ended.code).toBe(3);
      expect(ended.stderr).toBe('No resources found\n');
      // The script stopped the server before it returned: its address no longer answers.
      const kubeconfig = YAML.parse(await readFile(kept, 'utf8'));
      const server = kubeconfig.clusters[0].cluster.server as string;
      const after = await promisify(execFile)(kubectls[0].path, ['--kubeconfig', kept, 'get', 'ns'], {
        encoding: 'utf8',
      }).then(
        () => 'answered',
        (err: { stderr?: string }) => err.stderr ?? '',
      );
      expect(after).toBe(
        `The connection to the server ${server.replace(/^https:\/\//, '')} was refused - did you specify the right host or port?\n`,
      );
    },
  );

  it('a serve that cannot start: its error line, a non-zero status, the command never run', async () => {
    const marker = join(tempDir(), 'ran');
    const ended = await runScript(['--crds', join(tempDir(), 'nowhere'), '--', 'touch', marker]);
    expect(ended.code).toBe(1);
    expect(ended.stderr).toBe(
      `watchmark serve exited with status 1 before it was ready:\nerror: --crds ${join(tempDir(), 'nowhere')}: no such file or directory\n`,
    );
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  it('without a command: usage and status 2', async () => {
    const ended = await runScript(['--controllers', 'namespace', '--']);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(
      /^usage: .*run-with-watchmark\.sh \[SERVE FLAGS\.\.\.\] -- COMMAND \[ARGS\.\.\.\]\n$/,
    );
  });
});
