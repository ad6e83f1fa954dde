/**
 * The watcher's restart table (src/client/watch/restart.ts `decide`), one test row
 * per row of the table in docs/client.md ("The watcher"), in the same order
 * and with the same first cell: the last test checks that the two agree.
 * `decide` is pure, so each row is a state, an outcome and what follows.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../../src/client/http/transport.js';
import { DEFAULT_BACKOFF } from '../../../src/client/watch/backoff.js';
import type { WatchStream } from '../../../src/client/watch/listwatch.js';
import { decide } from '../../../src/client/watch/restart.js';
import type {
  Counted,
  Outcome,
  Phase,
  RestartEnv,
  Transition,
  WatcherState,
} from '../../../src/client/watch/watcher-state.js';
import type { WatcherEvent, WatcherNextAction } from '../../../src/client/watch/watcher-types.js';
import { StatusError } from '../../../src/protocol/status.js';
import { ev, obj, refusal } from '../../helpers/scripted-source.js';

const NOW = 1_000_000;
const stream: WatchStream = { next: async () => undefined, close: () => {} };

/** A state in `phase`, at resourceVersion 10, with no failure behind it. */
function at(phase: Phase, over: Partial<WatcherState> = {}): WatcherState {
  return {
    phase,
    resourceVersion: '10',
    streamMode: false,
    attempt: 0,
    lastFailureAt: Number.NEGATIVE_INFINITY,
    ...over,
  };
}

/** A stream opened from 10 at NOW - 5 s that has delivered one event. */
function watching(over: Partial<Extract<Phase, { kind: 'Watching' }>> = {}): Phase {
  return {
    kind: 'Watching',
    stream,
    from: '10',
    startedAt: NOW - 5_000,
    timeoutMs: 300_000,
    events: 1,
    initial: false,
    ...over,
  };
}

const empty = (cause: 'initial' | 'expired' | 'tooLarge' | 'error', relist: object): Phase =>
  ({ kind: 'Empty', cause, relist }) as Phase;
const notOlderThan = (resourceVersion: string) => ({ resourceVersion, resourceVersionMatch: 'NotOlderThan' });

const expired = () => refusal.expired('too old resource version: 10 (20)');
const tooLarge = refusal.tooLarge;
const refused = () => new TransportError('connect ECONNREFUSED 127.0.0.1:6443', 'ECONNREFUSED');

/** What `failure.next` says: a (re)list and why, the same request again, or a watch. */
const list = (cause: string, resourceVersion: string, streaming = false) =>
  ({ action: 'list', cause, resourceVersion, streaming }) as WatcherNextAction;
const retry = (request: string, resourceVersion: string) =>
  ({ action: 'retry', request, resourceVersion }) as WatcherNextAction;
const watch = (resourceVersion: string): WatcherNextAction => ({ action: 'watch', resourceVersion });

interface Row {
  /** The first cell of its row in docs/client.md's restart table, word for word. */
  situation: string;
  state: WatcherState;
  outcome: Outcome;
  env?: Partial<RestartEnv>;
  next: {
    phase: Record<string, unknown>;
    resourceVersion?: string;
    streamMode?: boolean;
    attempt?: number;
  };
  delayMs: number;
  events?: string[];
  counted?: Counted;
  failure?: [what: string, next: WatcherNextAction];
  note?: string;
}

const rows: Row[] = [
  {
    situation: 'start',
    state: at({ kind: 'Start' }, { resourceVersion: '' }),
    outcome: { kind: 'initialState', given: undefined },
    next: { phase: { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } } },
    delayMs: 0,
  },
  {
    situation: 'start with an `initialState` (a checkpoint)',
    state: at({ kind: 'Start' }, { resourceVersion: '' }),
    outcome: { kind: 'initialState', given: { resourceVersion: '7', objects: [obj('a', '5')] } },
    next: { phase: { kind: 'InitListed', resumed: true }, resourceVersion: '7' },
    delayMs: 0,
    events: ['init:checkpoint', 'initApply:a', 'initDone:7'],
  },
  {
    situation: 'the `initialState` function fails',
    state: at({ kind: 'Start' }, { resourceVersion: '' }),
    outcome: { kind: 'initialStateFailed', err: new Error('disk gone') },
    next: { phase: { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } } },
    delayMs: 0,
    counted: { error: true },
    failure: ['initial state unavailable: listing', list('initial', '0')],
  },
  {
    situation: 'a list answers',
    state: at(empty('initial', { resourceVersion: '0' }), { resourceVersion: '' }),
    outcome: { kind: 'listed', items: [obj('a', '11')], resourceVersion: '12' },
    next: { phase: { kind: 'InitListed', resumed: false }, resourceVersion: '12' },
    delayMs: 0,
    events: ['init:initial', 'initApply:a', 'initDone:12'],
    counted: { list: 'initial' },
  },
  {
    situation: 'a continue token expires (410 on a later page)',
    state: at(empty('initial', { resourceVersion: '0' }), { resourceVersion: '' }),
    outcome: { kind: 'continueExpired', err: expired() },
    next: { phase: { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' }, full: true } },
    delayMs: 0,
  },
  {
    situation: 'every event and bookmark',
    state: at(watching()),
    outcome: {
      kind: 'events',
      events: [
        ev.added(obj('a', '11')),
        ev.modified(obj('a', '12')),
        ev.bookmark('20'),
        ev.deleted(obj('a', '21')),
      ],
    },
    next: { phase: { kind: 'Watching', events: 5, initial: false }, resourceVersion: '21' },
    delayMs: 0,
    events: ['apply:a', 'apply:a', 'bookmark:20', 'delete:a'],
  },
  {
    situation: 'the watch ends cleanly (its `timeoutSeconds`, random in [300, 600) s)',
    state: at(watching({ startedAt: NOW - 300_000 })),
    outcome: { kind: 'closed' },
    next: { phase: { kind: 'InitListed', resumed: true }, resourceVersion: '10' },
    delayMs: 0,
    counted: { watchEnd: 'timeout' },
  },
  {
    situation: 'a watch ends with `410 Expired`/`Gone` (an ERROR event)',
    state: at(watching()),
    outcome: { kind: 'events', events: [ev.bookmark('25'), ev.error(410, 'Expired')] },
    next: { phase: { kind: 'Empty', cause: 'expired', relist: notOlderThan('25') }, resourceVersion: '25' },
    delayMs: 0,
    events: ['bookmark:25'],
    counted: { watchEnd: 'expired', error: true },
    failure: ['watch expired: relisting', list('expired', '25')],
  },
  {
    situation: 'a watch request answers `410 Expired`',
    state: at({ kind: 'InitListed', resumed: true }),
    outcome: { kind: 'watchFailed', err: expired() },
    next: { phase: { kind: 'Empty', cause: 'expired', relist: notOlderThan('10') } },
    delayMs: 0,
    counted: { error: true },
    failure: ['watch failed to start', list('expired', '10')],
  },
  {
    situation: 'a watch request answers `504` too large resourceVersion',
    state: at({ kind: 'InitListed', resumed: true }),
    outcome: { kind: 'watchFailed', err: tooLarge() },
    next: { phase: { kind: 'Empty', cause: 'tooLarge', relist: notOlderThan('10') }, attempt: 1 },
    delayMs: 1_000,
    counted: { error: true },
    failure: ['watch failed to start', list('tooLarge', '10')],
  },
  {
    situation: 'a list that named a resourceVersion answers `410`',
    state: at(empty('expired', notOlderThan('10'))),
    outcome: { kind: 'listFailed', err: expired() },
    next: { phase: { kind: 'Empty', cause: 'expired', relist: { resourceVersion: '' } }, attempt: 0 },
    delayMs: 0,
    counted: { list: 'expired', error: true },
    failure: ['list failed', list('expired', '')],
  },
  {
    situation: 'a list that named a resourceVersion answers too large',
    state: at(empty('tooLarge', notOlderThan('10'))),
    outcome: { kind: 'listFailed', err: tooLarge() },
    next: { phase: { kind: 'Empty', cause: 'tooLarge', relist: { resourceVersion: '' } }, attempt: 0 },
    delayMs: 0,
    counted: { list: 'tooLarge', error: true },
    failure: ['list failed', list('tooLarge', '')],
  },
  {
    situation: 'a streaming list that named a resourceVersion answers `410` or too large',
    state: at(empty('expired', notOlderThan('50')), { streamMode: true, resourceVersion: '50' }),
    outcome: { kind: 'watchFailed', err: tooLarge() },
    next: { phase: { kind: 'Empty', cause: 'tooLarge', relist: { resourceVersion: '' } }, streamMode: true },
    delayMs: 0,
    counted: { list: 'expired', error: true },
    failure: ['watch failed to start', list('tooLarge', '', true)],
  },
  {
    situation: 'any other list failure (connection refused, 5xx, 429, a consistent read refused)',
    state: at(empty('expired', { resourceVersion: '' })),
    outcome: { kind: 'listFailed', err: expired() },
    next: { phase: { kind: 'Empty', cause: 'expired', relist: { resourceVersion: '' } }, attempt: 1 },
    delayMs: 800,
    counted: { list: 'expired', error: true },
    failure: ['list failed', retry('list', '')],
  },
  {
    situation: 'any other watch request failure (429, 5xx, connection refused, TLS or auth failures)',
    state: at({ kind: 'InitListed', resumed: false }),
    outcome: {
      kind: 'watchFailed',
      err: StatusError.of('TooManyRequests', 'slow down', { retryAfterSeconds: 5 }, 429),
    },
    next: { phase: { kind: 'InitListed', resumed: true }, resourceVersion: '10', attempt: 1 },
    delayMs: 5_000,
    counted: { error: true },
    failure: ['watch failed to start', retry('watch', '10')],
  },
  {
    situation: 'each further failure',
    state: at({ kind: 'InitListed', resumed: true }, { attempt: 3, lastFailureAt: NOW - 10_000 }),
    outcome: { kind: 'watchFailed', err: refused() },
    env: { random: 0.5 },
    next: { phase: { kind: 'InitListed' }, attempt: 4 },
    delayMs: 6_400 * 1.5,
    counted: { error: true },
    failure: ['watch failed to start', retry('watch', '10')],
  },
  {
    situation: 'a failure after 2 minutes without one',
    state: at({ kind: 'InitListed', resumed: true }, { attempt: 7, lastFailureAt: NOW - 120_001 }),
    outcome: { kind: 'watchFailed', err: refused() },
    next: { phase: { kind: 'InitListed' }, attempt: 1 },
    delayMs: 800,
    counted: { error: true },
    failure: ['watch failed to start', retry('watch', '10')],
  },
  {
    situation: 'a watch that lasted 1 s or delivered an event is cut by a reset or an EOF',
    state: at(watching({ events: 0, startedAt: NOW - 1_000 })),
    outcome: { kind: 'cut', err: new TransportError('read ECONNRESET', 'ECONNRESET') },
    next: { phase: { kind: 'InitListed', resumed: true }, attempt: 0 },
    delayMs: 0,
    counted: { watchEnd: 'reset' },
    note: 'info: watch stream cut: resuming',
  },
  {
    situation: 'a watch that ends (cleanly or cut) within 1 s with no events',
    state: at(watching({ events: 0, startedAt: NOW - 999 })),
    outcome: { kind: 'closed' },
    next: { phase: { kind: 'InitListed', resumed: true }, attempt: 1 },
    delayMs: 800,
    counted: { watchEnd: 'serverClose', error: true },
  },
  {
    situation: 'a watch that breaks with an undecodable line',
    state: at(watching({ events: 3 })),
    outcome: { kind: 'cut', err: new SyntaxError('Unexpected token < in JSON') },
    next: { phase: { kind: 'InitListed', resumed: true }, attempt: 1 },
    delayMs: 800,
    counted: { watchEnd: 'error', error: true },
    failure: ['watch stream broke', watch('10')],
  },
  {
    situation: 'a watch ends with any other ERROR event',
    state: at(watching()),
    outcome: { kind: 'events', events: [ev.error(500, 'InternalError', 'etcd is gone')] },
    next: { phase: { kind: 'InitListed', resumed: true }, attempt: 1 },
    delayMs: 800,
    counted: { watchEnd: 'error', error: true },
    failure: ['watch ended with an error', watch('10')],
  },
  {
    situation: 'a stream silent for its watch timeout + 5 s',
    state: at(watching()),
    outcome: { kind: 'idle', idleMs: 305_000 },
    next: { phase: { kind: 'InitListed', resumed: true } },
    delayMs: 0,
    counted: { watchEnd: 'idle' },
    note: 'warn: watch stream silent for too long: resuming',
  },
  {
    situation: "`initial: 'stream'`",
    state: at(empty('initial', { resourceVersion: '0' }), { resourceVersion: '', streamMode: true }),
    outcome: { kind: 'watchOpened', stream, timeoutMs: 300_000 },
    next: { phase: { kind: 'Watching', from: '', initial: true, events: 0, startedAt: NOW } },
    delayMs: 0,
    events: ['init:initial'],
    counted: { list: 'initial' },
  },
  {
    situation: "an object of a streaming list's initial state",
    state: at(watching({ from: '', initial: true, events: 0 }), { resourceVersion: '', streamMode: true }),
    outcome: { kind: 'events', events: [ev.added(obj('b', '7')), ev.added(obj('a', '3'))] },
    next: { phase: { kind: 'Watching', initial: true, events: 2 }, resourceVersion: '' },
    delayMs: 0,
    events: ['initApply:b', 'initApply:a'],
  },
  {
    situation: 'the `k8s.io/initial-events-end` bookmark',
    state: at(watching({ from: '', initial: true, events: 0 }), { resourceVersion: '', streamMode: true }),
    outcome: {
      kind: 'events',
      events: [ev.added(obj('a', '3')), ev.bookmark('9', true), ev.modified(obj('a', '10'))],
    },
    next: { phase: { kind: 'Watching', initial: false, events: 3 }, resourceVersion: '10' },
    delayMs: 0,
    events: ['initApply:a', 'initDone:9', 'apply:a'],
  },
  {
    situation: 'a streaming list ends before its end marker',
    state: at(watching({ from: '25', initial: true }), { resourceVersion: '25', streamMode: true }),
    outcome: { kind: 'cut', err: new TransportError('watch stream cut mid-flight', 'UNEXPECTED_EOF') },
    next: { phase: { kind: 'Empty', cause: 'error', relist: notOlderThan('25') }, streamMode: true },
    delayMs: 0,
    counted: { watchEnd: 'reset' },
    note: 'info: watch stream cut: resuming',
  },
  {
    situation: 'the server refuses streaming lists (400, 403, 422)',
    state: at(empty('initial', { resourceVersion: '0' }), { resourceVersion: '', streamMode: true }),
    outcome: {
      kind: 'watchFailed',
      err: StatusError.of('Invalid', 'sendInitialEvents is forbidden', undefined, 422),
    },
    next: { phase: { kind: 'Empty', cause: 'initial', relist: { resourceVersion: '0' } }, streamMode: false },
    delayMs: 0,
    counted: { list: 'initial', error: true },
    failure: ['watch failed to start', list('initial', '0')],
  },
];

/** Each event in one word, as test/helpers/watcher-harness.ts writes them. */
const word = (e: WatcherEvent) =>
  'object' in e
    ? `${e.type}:${e.object.metadata?.name}`
    : e.type === 'init'
      ? `init:${e.cause}`
      : `${e.type}:${e.resourceVersion}`;

function run(row: Row): Transition {
  const env: RestartEnv = { now: NOW, random: 0, backoff: DEFAULT_BACKOFF, minWatchMs: 1_000, ...row.env };
  return decide(row.state, row.outcome, env);
}

describe('the restart table (docs/client.md, "The watcher")', () => {
  it.each(rows.map((row) => [row.situation, row] as const))('%s', (_, row) => {
    const t = run(row);
    expect(t.next.phase).toMatchObject(row.next.phase);
    const { phase: _phase, ...rest } = row.next;
    expect(t.next).toMatchObject({ resourceVersion: row.state.resourceVersion, ...rest });
    expect(t.delayMs).toBe(row.delayMs);
    expect(t.events.map(word)).toEqual(row.events ?? []);
    expect(t.counted).toEqual(row.counted ?? {});
    expect(t.failure && [t.failure.what, t.failure.next]).toEqual(row.failure);
    if (t.failure) expect(t.failure.delayMs).toBe(row.delayMs);
    expect(t.note && `${t.note.level}: ${t.note.msg}`).toBe(row.note);
  });

  it('does not change the state it is given', () => {
    for (const row of rows) {
      const before = structuredClone({ ...row.state, phase: { ...row.state.phase, stream: undefined } });
      run(row);
      expect({ ...row.state, phase: { ...row.state.phase, stream: undefined } }).toEqual(before);
    }
  });

  it('has one row in docs/client.md for each test row, in the same order', async () => {
    const doc = await readFile(new URL('../../../docs/client.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('| situation | what the watcher does |'));
    const lines = table.split('\n').slice(2);
    const cells = lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith('|')),
      )
      .map((l) => cellOf(l));
    expect(cells).toEqual(rows.map((r) => r.situation));
  });
});

/** A table line's first cell (cells hold no `|`). */
function cellOf(line: string): string {
  return line.split('|')[1].trim();
}
