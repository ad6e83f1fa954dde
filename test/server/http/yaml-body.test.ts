import { describe, expect, it } from 'vitest';
import { Lexer } from 'yaml';
import { StatusError } from '../../../src/protocol/status.js';
import {
  MAX_YAML_DEPTH,
  parseYamlBody,
  yamlDepthBound,
  yamlDuplicateKeys,
} from '../../../src/server/http/yaml-body.js';

const bound = (text: string) => yamlDepthBound(new Lexer().lex(text));

async function refusal(text: string): Promise<StatusError | undefined> {
  return parseYamlBody(Buffer.from(text)).then(
    () => undefined,
    (err: unknown) => err as StatusError,
  );
}

describe('parseYamlBody', () => {
  it('reads JSON and YAML manifests', async () => {
    expect(await parseYamlBody(Buffer.from('{"kind":"Pod","metadata":{"name":"a"}}'))).toEqual({
      kind: 'Pod',
      metadata: { name: 'a' },
    });
    const yaml =
      'kind: Pod\nmetadata:\n  name: a\n  labels: {app: web}\nspec:\n  containers:\n  - name: c\n    args: ["[[[", "]"]\n';
    expect(await parseYamlBody(Buffer.from(yaml))).toMatchObject({
      metadata: { name: 'a', labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', args: ['[[[', ']'] }] },
    });
  });

  it('refuses malformed YAML with a 400', async () => {
    const err = await refusal('a: [b\n');
    expect(err).toBeInstanceOf(StatusError);
    expect(err?.code).toBe(400);
  });

  it('refuses structures nested past the limit before the recursive parser sees them', async () => {
    for (const text of [
      `spec: ${'['.repeat(100_000)}`,
      `${'{a: '.repeat(5_000)}1${'}'.repeat(5_000)}`,
      `${'- '.repeat(100_000)}1`,
      Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
    ]) {
      const err = await refusal(text);
      expect(err?.code, text.slice(0, 40)).toBe(400);
      expect(err?.message).toMatch(/nested deeper|nested too deeply/);
    }
  });
});

describe('yamlDepthBound', () => {
  it('bounds the nesting from above and ignores quoted and block scalar content', () => {
    expect(bound('a: 1')).toBe(1);
    expect(bound('a:\n  b:\n    c: [1, {d: 2}]')).toBeGreaterThanOrEqual(5);
    expect(bound(`a: '${'['.repeat(1000)}'\nb: "${'{'.repeat(1000)}"`)).toBeLessThan(5);
    expect(bound(`a: |\n  ${'['.repeat(1000)}\n  - - - -\n`)).toBeLessThan(5);
    expect(bound(`${'['.repeat(MAX_YAML_DEPTH + 1)}`)).toBeGreaterThan(MAX_YAML_DEPTH);
  });
});

describe('yamlDuplicateKeys', () => {
  const repeats = (text: string) => yamlDuplicateKeys(Buffer.from(text));

  it("names each repeated key at its value's line, as go-yaml v2 does", async () => {
    // A value on the key's line: that line; a block mapping below its key: the mapping's first line.
    const text = 'spec:\n  size: 1\n  size: 2\nspec:\n  # the second\n\n  size: 3\nlist: [1]\nlist:\n- 2\n';
    expect(await repeats(text)).toEqual([
      'line 3: key "size" already set in map',
      'line 7: key "spec" already set in map',
      'line 10: key "list" already set in map',
    ]);
  });

  it('reads JSON as YAML: one line, quoted keys', async () => {
    expect(await repeats('{"a":{"b":1,"b":2},"a":{}}')).toEqual([
      'line 1: key "b" already set in map',
      'line 1: key "a" already set in map',
    ]);
    expect(await repeats('{"a":1}')).toEqual([]);
  });
});
