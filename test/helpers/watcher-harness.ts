/**
 * A Watcher over a {@link ScriptedSource} on a ManualClock, its events
 * collected as they come: the setup of the watcher state-machine tests.
 */
import { Watcher, type WatcherEvent, type WatcherOptions } from '../../src/client/watch/watcher.js';
import { ManualClock } from '../../src/protocol/clock.js';
import { ScriptedSource } from './scripted-source.js';

export function runWatcher(opts: WatcherOptions = {}) {
  const clock = new ManualClock();
  const source = new ScriptedSource();
  const watcher = new Watcher(source, { clock, random: () => 0, ...opts });
  const events: WatcherEvent[] = [];
  const done = (async () => {
    for await (const e of watcher) events.push(e);
  })();
  /** Each event in one word: `initApply:a`, `init:initial`, `bookmark:20`... */
  const types = () =>
    events.map((e) =>
      'object' in e
        ? `${e.type}:${e.object.metadata?.name}`
        : e.type === 'init'
          ? `init:${e.cause}`
          : `${e.type}:${e.resourceVersion}`,
    );
  const stop = async () => {
    watcher.stop();
    await done;
  };
  return { clock, source, watcher, events, types, stop };
}
