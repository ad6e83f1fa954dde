import { describe, expect, it } from 'vitest';
import { parseGinkgoJunit, parseGoTestVerbose } from './parse.js';

describe('controller-runtime results', () => {
  it("reads ginkgo's JUnit report: statuses, times, the failure's first lines without gomega's noise", () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="3"><testsuite name="Client Suite">
  <testcase name="[BeforeSuite]" classname="Client Suite" status="passed" time="1.5"></testcase>
  <testcase name="[It] Client should &quot;work&quot;" classname="Client Suite" status="failed" time="0.2">
    <failure message="Unexpected error:&#xA;    &lt;*errors.StatusError | 0xc000a1b2c0&gt;: &#xA;    the server could not find the requested resource&#xA;    {&#xA;        ErrStatus: {" type="failed">details</failure>
  </testcase>
  <testcase name="[It] Client skips" classname="Client Suite" status="skipped" time="0"><skipped message="skipped"></skipped></testcase>
</testsuite></testsuites>`;
    expect(parseGinkgoJunit(xml)).toEqual([
      { name: '[BeforeSuite]', outcome: 'passed', seconds: 1.5 },
      {
        name: '[It] Client should "work"',
        outcome: 'failed',
        seconds: 0.2,
        failure: 'Unexpected error:\n    the server could not find the requested resource',
      },
      { name: '[It] Client skips', outcome: 'skipped', seconds: 0 },
    ]);
  });

  it('reads -test.v output: subtests, failure output, and leaves out the function that ran a ginkgo suite', () => {
    const output = [
      '=== RUN   TestMapper',
      '=== RUN   TestMapper/a',
      '    mapper_test.go:12: want 3, got 2',
      '=== RUN   TestMapper/b',
      '--- FAIL: TestMapper (0.10s)',
      '    --- FAIL: TestMapper/a (0.05s)',
      '    --- SKIP: TestMapper/b (0.00s)',
      '=== RUN   TestSuite',
      'Running Suite: Client Suite',
      '--- PASS: TestSuite (3.00s)',
    ].join('\n');
    expect(parseGoTestVerbose(output)).toEqual([
      { name: 'TestMapper', outcome: 'failed', seconds: 0.1, failure: 'failed' },
      {
        name: 'TestMapper/a',
        outcome: 'failed',
        seconds: 0.05,
        failure: '    mapper_test.go:12: want 3, got 2',
      },
      { name: 'TestMapper/b', outcome: 'skipped', seconds: 0 },
    ]);
  });
});
