/**
 * Per-test results out of what a Go test binary leaves: ginkgo's JUnit report
 * (`--ginkgo.junit-report`, one `<testcase>` per spec and per suite node such
 * as `[BeforeSuite]`) and `-test.v` output for plain `go test` functions
 * (`--- PASS: TestX/sub (0.01s)`).
 */

/** A test's outcome, as the table counts it. */
export type Outcome = 'passed' | 'failed' | 'skipped';

/** One test (a ginkgo spec or suite node, or a `go test` function or subtest). */
export interface TestResult {
  name: string;
  outcome: Outcome;
  seconds: number;
  /** The first lines of the failure message, for failures. */
  failure?: string;
}

/** How many lines of a failure message are kept. */
const FAILURE_LINES = 6;

/**
 * The first lines of a failure message, without what changes from run to run or says nothing:
 * gomega's `<*errors.StatusError | 0xc000123>:` type lines, and the struct dump that follows an
 * error's text (from a line that opens with `{`).
 */
function firstLines(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '{') break;
    if (trimmed === '' || /^<[^>]*\| 0x[0-9a-f]+>:?$/.test(trimmed)) continue;
    out.push(line.trimEnd());
    if (out.length === FAILURE_LINES) break;
  }
  return out.join('\n');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(Number.parseInt(n, 16)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? unescapeXml(match[1]) : undefined;
}

/**
 * ginkgo's statuses: passed; skipped and pending (not run); failed, panicked,
 * interrupted, timedout, aborted (all count as failed).
 */
function ginkgoOutcome(status: string | undefined): Outcome {
  if (status === 'passed') return 'passed';
  if (status === 'skipped' || status === 'pending') return 'skipped';
  return 'failed';
}

/** The specs and suite nodes of a ginkgo JUnit report. */
export function parseGinkgoJunit(xml: string): TestResult[] {
  const out: TestResult[] = [];
  const testcase = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (let m = testcase.exec(xml); m !== null; m = testcase.exec(xml)) {
    const tag = m[1];
    const body = m[3] ?? '';
    const name = attribute(tag, 'name') ?? '?';
    const outcome = ginkgoOutcome(attribute(tag, 'status'));
    const result: TestResult = { name, outcome, seconds: Number(attribute(tag, 'time') ?? 0) };
    if (outcome === 'failed') {
      const failure = /<(failure|error)\b([^>]*)>([\s\S]*?)<\/\1>/.exec(body);
      const message = failure ? (attribute(failure[2], 'message') ?? unescapeXml(failure[3])) : '';
      result.failure = firstLines(message || attribute(tag, 'status') || 'failed');
    }
    out.push(result);
  }
  return out;
}

/**
 * The `go test` functions and subtests of `-test.v` output. A failure's
 * message is the output printed under its name (t.Error and t.Log lines).
 * Functions that ran a ginkgo suite (their output says `Running Suite:`) are
 * left out: the JUnit report has their specs.
 */
export function parseGoTestVerbose(output: string): TestResult[] {
  const lines = new Map<string, string[]>();
  const order: TestResult[] = [];
  let current: string | undefined;
  for (const line of output.split('\n')) {
    const run = /^=== (RUN|CONT|PAUSE|NAME)\s+(\S+)/.exec(line);
    if (run) {
      current = run[2];
      if (!lines.has(current)) lines.set(current, []);
      continue;
    }
    const end = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(([\d.]+)s\)/.exec(line);
    if (end) {
      const name = end[2];
      const outcome: Outcome = end[1] === 'PASS' ? 'passed' : end[1] === 'FAIL' ? 'failed' : 'skipped';
      const result: TestResult = { name, outcome, seconds: Number(end[3]) };
      const printed = lines.get(name) ?? [];
      if (outcome === 'failed') result.failure = firstLines(printed.join('\n')) || 'failed';
      if (!printed.some((l) => l.includes('Running Suite:'))) order.push(result);
      current = undefined;
      continue;
    }
    if (current !== undefined) lines.get(current)?.push(line);
  }
  return order;
}
