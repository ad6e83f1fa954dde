/** The test helpers that find kubectl binaries and gate suites on them (test/helpers/tools.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findKubectls, requireTool } from '../../helpers/tools.js';

const kubectls = await findKubectls();

// The kubectl gates of the suites rely on these.
describe('test helpers: findKubectls and requireTool', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('lists the PATH kubectl first, then kubectl.1.* by minor', () => {
    if (kubectls.length === 0) return;
    expect(kubectls[0].name).toBe('kubectl');
    const minors = kubectls.slice(1).map((k) => Number(k.name.replace('kubectl.1.', '')));
    expect(minors).toEqual([...minors].sort((a, b) => a - b));
    // Each is the file of its name, but the reference build's v1.37.2, whose file is `kubectl`.
    expect(kubectls.every((k) => k.path.endsWith(k.name) || k.name === 'kubectl.1.37')).toBe(true);
  });

  it('passes a found tool, fails a missing one under CI and skips it elsewhere', () => {
    expect(requireTool('x', true)).toBe(true);
    vi.stubEnv('CI', 'true');
    expect(() => requireTool('no-such-tool', false)).toThrow(/no-such-tool is required under CI/);
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(requireTool('no-such-tool', false)).toBe(false);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('no-such-tool not found'));
    } finally {
      warn.mockRestore();
    }
  });
});
