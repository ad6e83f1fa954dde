/**
 * The study's tables as text: the three main runs side by side (one row per
 * measure), then the selectivity table, then one line per claim with whether
 * the measurement meets it.
 */
import { MAX_ATTEMPTS } from './options.js';
import { meanReconnectMs, type RunResult, watchRestarts, workPerRestart } from './result.js';
import type { SelectivityRow, StudyResult } from './study-result.js';

/** `12,345`. */
function n(x: number): string {
  return Math.round(x).toLocaleString('en-US');
}

/** `1.2 MB`. */
function bytes(x: number): string {
  if (x >= 1e9) return `${(x / 1e9).toFixed(2)} GB`;
  if (x >= 1e6) return `${(x / 1e6).toFixed(1)} MB`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} kB`;
  return `${x} B`;
}

/** `2.5 %` (or `0.31 %` for small shares). */
export function pct(x: number): string {
  const p = x * 100;
  return `${p < 1 && p > 0 ? p.toFixed(2) : p.toFixed(1)} %`;
}

function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The main runs' table: what each run cost the server and the clients. */
export function mainTable(runs: RunResult[], baseline: RunResult, timeScale: number): string {
  const restarts = watchRestarts;
  const relists = (r: RunResult) => Object.values(r.clients.lists).reduce((a, b) => a + b, 0);
  const rows: Array<[string, (r: RunResult) => string]> = [
    ['history window', (r) => `${r.historyWindowMs / 1000} s`],
    ['watch restarts (timeouts)', (r) => n(restarts(r))],
    ['  from a RV older than the window', (r) => n(r.clients.staleStarts)],
    ['410 Expired answers', (r) => n(r.server.expiredSent)],
    ['relists (all causes)', (r) => n(relists(r))],
    ['  objects relisted', (r) => n(r.server.listObjects)],
    ['  bytes relisted', (r) => bytes(r.clients.listBytes)],
    ['init events examined', (r) => n(r.server.initEventsExamined)],
    ['init events sent', (r) => n(r.server.initEventsSent)],
    ['restart work (examined + relisted)', (r) => n(r.restartWork)],
    ['RESTART WORK PER RESTART', (r) => workPerRestart(r).toFixed(1)],
    ['  vs bookmarks off', (r) => pct(workPerRestart(r) / Math.max(1e-9, workPerRestart(baseline)))],
    [
      'reconnect gap, real (cluster)',
      (r) =>
        `${meanReconnectMs(r).toFixed(1)} ms (${((meanReconnectMs(r) * timeScale) / 1000).toFixed(2)} s)`,
    ],
    ['bookmarks sent', (r) => n(r.server.bookmarksSent)],
    ['events sent (ADDED/MODIFIED/DELETED)', (r) => n(r.server.eventsSent)],
    ['bytes sent by the server', (r) => bytes(r.server.watchBytesWritten + r.server.responseBytesWritten)],
    ['  on watches', (r) => bytes(r.server.watchBytesWritten)],
    ['server CPU', (r) => `${(r.server.cpuMs / 1000).toFixed(1)} s`],
    ['client CPU (watchers + churn)', (r) => `${(r.clientCpuMs / 1000).toFixed(1)} s`],
    ['  watchers (study process)', (r) => `${((r.clientCpuMs - r.churnCpuMs) / 1000).toFixed(1)} s`],
    ['  churn writer (own process)', (r) => `${(r.churnCpuMs / 1000).toFixed(1)} s`],
    ['event-loop delay p99, client / server', (r) => `${r.eventLoopDelayMs.p99} / ${r.serverDelayMs.p99} ms`],
    ['longest stall, client / server', (r) => `${r.eventLoopDelayMs.max} / ${r.serverDelayMs.max} ms`],
    ['slowest pod write', (r) => `${r.churn.maxLatencyMs} ms`],
    ['attempt', (r) => `${r.attempt}${r.disturbed ? ' (disturbed)' : ''}`],
    ['pod writes', (r) => n(r.churn.writes)],
    ['events missed (caches vs server)', (r) => n(r.verify.missing + r.verify.extra + r.verify.stale)],
  ];
  return table(
    ['', ...runs.map((r) => r.label)],
    rows.map(([label, f]) => [label, ...runs.map(f)]),
  );
}

/** The selectivity table: how the saving depends on the share of events a watcher sees. */
export function selectivityTable(rows: SelectivityRow[]): string {
  return table(
    [
      'watchers select',
      'see',
      'n',
      'restarts',
      'work/restart on',
      'off',
      'on/off',
      'model',
      '410 relists on',
      'off',
    ],
    rows.map((r) => [
      r.selects,
      pct(r.seenShare),
      String(r.watchers),
      `${r.restartsWith}/${r.restartsWithout}`,
      r.workPerRestartWith.toFixed(1),
      r.workPerRestartWithout.toFixed(1),
      r.ratio === null ? 'n/a' : pct(r.ratio),
      r.model.ratio === null ? 'n/a' : pct(r.model.ratio),
      String(r.relistsWith),
      String(r.relistsWithout),
    ]),
  );
}

/** Every table and the verdicts, as printed at the end of a study. */
export function formatTables(result: StudyResult): string {
  const o = result.options;
  const main = result.runs.slice(0, 3);
  const [on, off, off2] = main;
  const out: string[] = [];
  out.push(
    `Bookmark study: ${o.watchers} watchers of spec.nodeName=node-i + ${o.namespaceWatchers} namespace-wide, ` +
      `${o.churn} pod writes/s over ${o.watchers} nodes, ${on.clusterMinutes} cluster min per run, ` +
      `time scale ${o.timeScale}x, seed ${o.seed}`,
  );
  out.push(
    `Server: bookmark every ${o.bookmarkIntervalMs / 1000} s and ${o.bookmarkLeadMs / 1000} s before a watch's deadline; ` +
      `clients: watch timeouts in [${o.watchTimeoutMs[0] / 60_000}, ${o.watchTimeoutMs[1] / 60_000}) min (all in cluster time)`,
  );
  out.push('');
  out.push(mainTable(main, off, o.timeScale));
  out.push('');
  if (result.selectivity.length > 0) {
    out.push(
      'Selectivity: server work per watch restart; "model" is model.ts\'s on/off, with the measured reconnect gap',
    );
    out.push(selectivityTable(result.selectivity));
    out.push('');
  }
  const perWatcher = off.clients.lists.expired / Math.max(1, off.clientsByClass.node?.watchers ?? 1);
  out.push(
    `restart work per restart with bookmarks: ${(result.ratio * 100).toFixed(2)} % of bookmarks off ` +
      `(target <= 2.5 %: ${result.ratio <= 0.025 ? 'met' : 'not met'}; totals ${pct(result.totalRatio)}; ` +
      `model.ts's best for any selectivity at this window: ${pct(result.bestPossibleRatio.ratio)}), ` +
      `${pct(result.ratioVsDoubledWindow)} of off with the window doubled`,
  );
  out.push(
    `410-driven relists: ${on.clients.lists.expired} with bookmarks, ${off.clients.lists.expired} without ` +
      `(${perWatcher.toFixed(2)} per watcher; ${off.clients.staleStarts} restarts came after a window without an event), ` +
      `${off2.clients.lists.expired} with the window doubled`,
  );
  out.push(`events missed in all ${result.runs.length} runs: ${result.missedEvents}`);
  const disturbed = result.runs.filter((r) => r.disturbed).map((r) => r.id);
  if (disturbed.length > 0)
    out.push(
      `WARNING: still disturbed by stalls after ${MAX_ATTEMPTS} attempts: ${disturbed.join(', ')} (a busy machine: lower --time-scale)`,
    );
  out.push(
    `files: ${[result.files.json, result.files.svg, result.files.png ?? result.files.pngNote].join(', ')}`,
  );
  return out.join('\n');
}
