import { Command, InvalidArgumentError } from 'commander';
import { STUDY_DEFAULTS, type StudyOptions } from '../study/options.js';
import { runRestartStudy } from '../study/restart.js';
import { runStudy } from '../study/study.js';
import { CliError, durationArg, positiveIntArg } from './errors.js';

interface StudyFlags {
  watchers?: number;
  podsPerNode?: number;
  namespaceWatchers?: number;
  duration?: number;
  churn?: number;
  historyWindow?: number;
  bookmarkInterval?: number;
  bookmarkLead?: number;
  timeScale?: number;
  seed?: number;
  selectivity: boolean;
  quick?: boolean;
  out?: string;
  restart?: boolean;
  restartGaps?: number[];
}

function positiveNumberArg(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`invalid number ${JSON.stringify(value)}: want a positive number`);
  return n;
}

function intArg(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`invalid number ${JSON.stringify(value)}`);
  return Number(value);
}

/** `watchmark study`: the bookmark study (docs/bookmarks.md), thin over {@link runStudy}. */
export function studyCommand(): Command {
  const d = STUDY_DEFAULTS;
  return new Command('study')
    .description(
      'measure what bookmarks save: the same cluster and churn with bookmarks on, off, and off with a doubled history window',
    )
    .option('--watchers <n>', `kubelet-like watchers, one per node (default ${d.watchers})`, positiveIntArg)
    .option('--pods-per-node <n>', `standing pods per node (default ${d.podsPerNode})`, positiveIntArg)
    .option('--namespace-watchers <n>', `namespace-wide watchers (default ${d.namespaceWatchers})`, intArg)
    .option(
      '--duration <duration>',
      `cluster time each main run lasts (default ${d.durationMs / 60_000}m)`,
      durationArg,
    )
    .option('--churn <writes/s>', `pod writes per cluster second (default ${d.churn})`, positiveNumberArg)
    .option('--history-window <duration>', "the watch cache's history window (default 75s)", durationArg)
    .option(
      '--bookmark-interval <duration>',
      'how often each watch gets a bookmark (default 1m)',
      durationArg,
    )
    .option(
      '--bookmark-lead <duration>',
      "last bookmark this long before a watch's deadline (default 2s)",
      durationArg,
    )
    .option('--time-scale <x>', `divide every duration by this (default ${d.timeScale})`, positiveNumberArg)
    .option('--seed <n>', `seed of the churn and the watch timeouts (default ${d.seed})`, intArg)
    .option('--no-selectivity', 'skip the runs with watchers of other selectivity')
    .option('--quick', 'a small version in well under a minute (50 watchers, 10 cluster minutes, 60x)')
    .option('--out <dir>', `where study.json and the chart go (default ${d.outDir})`)
    .option('--restart', 'instead: what a checkpoint saves on a process restart (study-restart.json)')
    .option(
      '--restart-gaps <seconds>',
      'cluster seconds between stop and start, comma-separated (default 10,60,150)',
      (v: string) => v.split(',').map((x) => positiveNumberArg(x)),
    )
    .action(async (flags: StudyFlags) => {
      const given: Partial<StudyOptions> = {
        watchers: flags.watchers,
        podsPerNode: flags.podsPerNode,
        namespaceWatchers: flags.namespaceWatchers,
        durationMs: flags.duration,
        churn: flags.churn,
        historyWindowMs: flags.historyWindow,
        bookmarkIntervalMs: flags.bookmarkInterval,
        bookmarkLeadMs: flags.bookmarkLead,
        timeScale: flags.timeScale,
        seed: flags.seed,
        quick: flags.quick,
        outDir: flags.out,
        // --quick skips the selectivity runs unless asked for them in some other way.
        selectivity: flags.quick ? undefined : flags.selectivity,
      };
      if (flags.restart) {
        await runRestartStudy(given, flags.restartGaps ?? [10, 60, 150]);
        return;
      }
      let result: Awaited<ReturnType<typeof runStudy>>;
      try {
        result = await runStudy(given);
      } catch (err) {
        if (err instanceof RangeError) throw new CliError(err.message);
        throw err;
      }
      if (result.missedEvents > 0)
        throw new CliError(`${result.missedEvents} events missed: see ${result.files.json}`);
    });
}
