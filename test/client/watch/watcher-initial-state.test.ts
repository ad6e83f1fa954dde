import { expect, it } from 'vitest';
import { StatusError } from '../../../src/protocol/status.js';
import { ev, listOf, obj, ScriptedStream, settle } from '../../helpers/scripted-source.js';
import { runWatcher } from '../../helpers/watcher-harness.js';

const setup = runWatcher;

const expired = () => StatusError.of('Expired', 'too old resource version: 7 (20)', undefined, 410);

it('initialState: yields the given state as init (checkpoint)..initDone, then watches from its resourceVersion with no list', async () => {
  const s = new ScriptedStream();
  const t = setup({
    initialState: async () => ({ resourceVersion: '7', objects: [obj('a', '5'), obj('b', '7')] }),
  });
  t.source.onWatch(s);
  await settle();
  s.push(ev.modified(obj('a', '9')));
  await settle();
  expect(t.types()).toEqual(['init:checkpoint', 'initApply:a', 'initApply:b', 'initDone:7', 'apply:a']);
  expect(t.source.calls.map((c) => c.op)).toEqual(['watch']);
  expect(t.source.calls[0].params).toMatchObject({ resourceVersion: '7', allowWatchBookmarks: true });
  expect(t.watcher.metrics).toMatchObject({ resumes: 1, lists: { initial: 0, expired: 0 } });
  await t.stop();
});

it('initialState: a 410 relists not-older-than its resourceVersion (client-go rules), like any relist', async () => {
  const t = setup({ initialState: { resourceVersion: '7', objects: [obj('a', '5')] } });
  t.source.onWatch(expired(), new ScriptedStream()).onList(listOf('30', [obj('c', '25')]));
  await settle();
  expect(t.source.calls.map((c) => c.op)).toEqual(['watch', 'list', 'watch']);
  expect(t.source.calls[1].params).toEqual({
    resourceVersion: '7',
    resourceVersionMatch: 'NotOlderThan',
    limit: 500,
  });
  expect(t.types()).toEqual([
    'init:checkpoint',
    'initApply:a',
    'initDone:7',
    'init:expired',
    'initApply:c',
    'initDone:30',
  ]);
  await t.stop();
});

it('initialState that resolves undefined or fails: an ordinary list', async () => {
  for (const initialState of [async () => undefined, async () => Promise.reject(new Error('disk gone'))]) {
    const t = setup({ initialState });
    t.source.onList(listOf('10', [obj('a', '5')])).onWatch(new ScriptedStream());
    await settle();
    expect(t.types()).toEqual(['init:initial', 'initApply:a', 'initDone:10']);
    await t.stop();
  }
});
