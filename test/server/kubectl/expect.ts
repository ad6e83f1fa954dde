/**
 * Assertions on finished kubectl runs, and the parsing of the tables kubectl prints. Failures
 * name the command line, so a CI log says which kubectl and which step.
 */
import { expect } from 'vitest';
import type { KubectlResult } from './run.js';

/** Asserts a finished kubectl run exactly: exit code 0, this stdout, nothing on stderr. */
export function expectOk(r: KubectlResult, stdout: string | RegExp): void {
  const shown = { code: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
  if (typeof stdout === 'string') {
    expect(shown, r.command).toEqual({ code: 0, signal: null, stdout, stderr: '' });
  } else {
    expect(shown, r.command).toEqual({
      code: 0,
      signal: null,
      stdout: expect.stringMatching(stdout),
      stderr: '',
    });
  }
}

/**
 * Asserts a run at `-v=N` succeeded: exit code 0, this stdout, and only info lines (klog `I...`,
 * or the indented continuation lines of multi-line values) on stderr.
 */
export function expectOkVerbose(r: KubectlResult, stdout: string | RegExp): void {
  const notInfo = r.stderr.split('\n').filter((line) => line !== '' && !/^(I\d{4} |\s)/.test(line));
  expect({ code: r.code, signal: r.signal, stdout: r.stdout, notInfo }, r.command).toEqual({
    code: 0,
    signal: null,
    stdout: typeof stdout === 'string' ? stdout : expect.stringMatching(stdout),
    notInfo: [],
  });
}

/** The JSON a successful `-o json` run printed. */
export function jsonOf(r: KubectlResult) {
  expectOk(r, /^\{\n/);
  return JSON.parse(r.stdout);
}

/** Asserts a failed kubectl run: exit code 1, nothing on stdout, exactly this stderr. */
export function expectFailure(r: KubectlResult, stderr: string): void {
  expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }, r.command).toEqual({
    code: 1,
    stdout: '',
    stderr,
  });
}

/** Splits a printed table into rows of cells (cells never contain spaces here). */
export function tableRows(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.trim().split(/\s+/));
}

/** Splits a printed table by the header's column starts, keeping empty cells (e.g. SHORTNAMES). */
export function tableByHeader(stdout: string): Record<string, string>[] {
  const [header, ...lines] = stdout.split('\n').filter((line) => line.trim() !== '');
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index }));
  return lines.map((line) =>
    Object.fromEntries(
      starts.map((col, i) => [col.name, line.slice(col.at, starts[i + 1]?.at ?? line.length).trim()]),
    ),
  );
}
