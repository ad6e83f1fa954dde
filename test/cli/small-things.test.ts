import { spawn } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { withTempDir } from '../helpers/lifecycle.js';

// Issue #10, item 4: the small things a new user hit first.

const readme = () => readFile(new URL('../../README.md', import.meta.url), 'utf8');
const packageJson = async () =>
  JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };

describe('watchmark --version', () => {
  it('prints the version of package.json and exits 0', async () => {
    const { version } = await packageJson();
    const [long, short] = [runCli(['--version']), runCli(['-V'])];
    expect(await long.exit, long.stderr()).toBe(0);
    expect(long.stdout()).toBe(`${version}\n`);
    expect(await short.exit, short.stderr()).toBe(0);
    expect(short.stdout()).toBe(`${version}\n`);
  });
});

describe('the demo length', () => {
  it('is the same in `watchmark demo --help` and in the README', async () => {
    const help = runCli(['demo', '--help']);
    expect(await help.exit).toBe(0);
    const inHelp = /about (\d+) s\b/.exec(help.stdout())?.[1];
    const inReadme = /npm start\s+#.*demo: about (\d+) s\b/.exec(await readme())?.[1];
    expect(inHelp, help.stdout()).toBeDefined();
    expect(inReadme).toBeDefined();
    expect(inHelp).toBe(inReadme);
  });
});

describe("the README's startServer snippet", () => {
  it('prints the URL and the kubeconfig path, never the bearer token', async () => {
    const snippet = /### The server as a library\n+```ts\n([\s\S]*?)```/.exec(await readme())?.[1];
    expect(snippet).toBeDefined();
    await withTempDir('watchmark-readme-', async (dir) => {
      // The snippet as written, with the package's export pointed at the sources.
      const server = new URL('../../src/server/index.ts', import.meta.url).href;
      const file = join(dir, 'snippet.mts');
      await writeFile(file, snippet!.replace("'watchmark/server'", JSON.stringify(server)));
      const tsx = createRequire(import.meta.url).resolve('tsx');
      const child = spawn(process.execPath, ['--import', tsx, file], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (err += c));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code, err).toBe(0);
      expect(out).toMatch(/^https:\/\/127\.0\.0\.1:\d+ kubeconfig\n$/);
      const kubeconfig = await readFile(join(dir, 'kubeconfig'), 'utf8');
      const token = /token: (\S+)/.exec(kubeconfig)?.[1];
      expect(token).toBeDefined();
      expect(out).not.toContain(token);
      expect((await stat(join(dir, 'kubeconfig'))).mode & 0o777).toBe(0o600);
    });
  });
});

describe('LICENSE', () => {
  it('is the full text of the license package.json declares', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
      license: string;
    };
    expect(pkg.license).toBe('Apache-2.0');
    const text = await readFile(new URL('../../LICENSE', import.meta.url), 'utf8');
    expect(text).toMatch(/^\s*Apache License\n\s*Version 2\.0, January 2004\n/);
    expect(text).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
    expect(text).toContain('END OF TERMS AND CONDITIONS');
  });
});
