import { describe, expect, it } from 'vitest';
import { parseManifests } from '../../../src/client/kubectl/manifest.js';

// Issue #10: a YAML error used to end on "at line 5, column 1:" with the excerpt cut off,
// so the user saw where but not what. The one-line message now carries the offending line.
describe('YAML errors name the line and show it', () => {
  it('shows the offending line of a bad indent', async () => {
    const text = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n spec: 1\n';
    await expect(parseManifests(text, 'dep.yaml')).rejects.toThrow(
      'dep.yaml: invalid YAML: line 5: All mapping items must start at the same column: " spec: 1"',
    );
  });

  it('never ends on "column N:" and stays one line', async () => {
    const broken = [
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata\n  a: b\n',
      'a: [1, 2\nb: 3\n',
      '\tkey: value\n',
      'a: 1\na: 2\n',
    ];
    for (const text of broken) {
      const err = await parseManifests(text, 'f.yaml').catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toMatch(/^f\.yaml: invalid YAML: line \d+: .+: ".*"$/);
      expect(message).not.toMatch(/column \d+:?$/);
      expect(message).not.toContain('\n');
    }
  });

  it('shows a tab as \\t, so an invisible mistake is visible', async () => {
    await expect(parseManifests('\tkey: value\n', 'f.yaml')).rejects.toThrow(
      'f.yaml: invalid YAML: line 1: Tabs are not allowed as indentation: "\\tkey: value"',
    );
  });

  it('points a quote left open at the line that opened it, not the blank end of the file', async () => {
    await expect(parseManifests("a: 'unterminated\n\n", 'f.yaml')).rejects.toThrow(
      `f.yaml: invalid YAML: line 1: Missing closing 'quote: "a: 'unterminated"`,
    );
  });

  it('counts lines across documents', async () => {
    const text = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\nkind: ConfigMap\nb: [\n';
    await expect(parseManifests(text, 'f.yaml')).rejects.toThrow(
      /^f\.yaml: document 2: invalid YAML: line 6: /,
    );
  });
});
