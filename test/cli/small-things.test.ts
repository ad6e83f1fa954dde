import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

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
