/**
 * Issue 26, item 4 (JSON half): what string shape is cheapest to hand to
 * JSON.parse for a JSON-lines watch stream, per event and per object size
 * (event-sizes.ts: ~1 KB, ~4 KB, ~40 KB), the stream cut in 64 KiB Buffer
 * chunks as a socket read delivers them. Variants, each over the same chunks:
 *
 * - concat-slice (the floor's way): each chunk decoded to a string
 *   (StringDecoder, as `setEncoding('utf8')` does), `rest + text`, then
 *   indexOf('\n') / slice per line and JSON.parse of the slice;
 * - buffer-line: newline found in the Buffer (indexOf(10)); each line
 *   decoded alone with `buf.toString('utf8', start, end)` (a line that
 *   spans chunks: its pieces concatenated as bytes first), JSON.parse;
 * - textdecoder-line: the same with TextDecoder.decode(subarray);
 * - parse-only-sliced / parse-only-decoded: the lines already split (as
 *   slices of decoded chunk strings / as per-line decoded strings): only
 *   the JSON.parse calls timed, to separate the string shape's effect on
 *   JSON.parse from the split's own cost.
 *
 * Each round runs every variant once per size in a rotated order (about
 * 4 MB of events per variant and size); figures are medians of the
 * measured rounds (the first is a warm-up), ns per event, and the ratio to
 * concat-slice within each round. The other processes' CPU is taken per
 * round (bench/lib/machine-load.ts `otherLoad`); rounds above 10 % of a
 * core are marked and left out of the medians when enough quiet ones remain.
 *
 *   npx tsx bench/experiments/json-string-shapes.ts [rounds]    # ~30 s at 9 rounds
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { otherLoad, readMachineCpu } from '../lib/machine-load.js';
import { median, ownCpuMs } from '../lib/report.js';
import { chunked, jsonEventLines, SIZES, type Size } from './event-sizes.js';

const ROUNDS = Number(process.argv[2] ?? 9);
const STREAM_BYTES = 4_000_000;

type Sink = (o: { type: string; object: { metadata: { name: string } } }) => void;
let checksum = 0;
const sink: Sink = (e) => {
  checksum += e.object.metadata.name.length;
};

function concatSlice(chunks: Buffer[]): void {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for (const chunk of chunks) {
    const buf = rest + decoder.write(chunk);
    let start = 0;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
      const line = buf.slice(start, nl);
      start = nl + 1;
      if (line.length) sink(JSON.parse(line));
    }
    rest = buf.slice(start);
  }
}

function bufferLines(chunks: Buffer[], decode: (b: Buffer, s: number, e: number) => string): void {
  let pending: Buffer[] = [];
  for (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      if (pending.length) {
        pending.push(chunk.subarray(0, nl));
        const whole = Buffer.concat(pending);
        pending = [];
        sink(JSON.parse(decode(whole, 0, whole.length)));
      } else if (nl > start) sink(JSON.parse(decode(chunk, start, nl)));
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
}

const utf8 = (b: Buffer, s: number, e: number) => b.toString('utf8', s, e);
const td = new TextDecoder();
const textDecoder = (b: Buffer, s: number, e: number) => td.decode(b.subarray(s, e));

/** The lines as concat-slice makes them (slices of decoded chunk strings). */
function slicedLines(chunks: Buffer[]): string[] {
  const out: string[] = [];
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for (const chunk of chunks) {
    const buf = rest + decoder.write(chunk);
    let start = 0;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n', start)) {
      out.push(buf.slice(start, nl));
      start = nl + 1;
    }
    rest = buf.slice(start);
  }
  return out;
}

function decodedLines(chunks: Buffer[]): string[] {
  const all = Buffer.concat(chunks);
  const out: string[] = [];
  let start = 0;
  for (let nl = all.indexOf(10); nl !== -1; nl = all.indexOf(10, start)) {
    out.push(all.toString('utf8', start, nl));
    start = nl + 1;
  }
  return out;
}

function parseAll(lines: string[]): void {
  for (const l of lines) sink(JSON.parse(l));
}

interface Stream {
  size: Size;
  events: number;
  bytes: number;
  chunks: Buffer[];
  sliced: string[];
  decoded: string[];
}

const streams: Stream[] = SIZES.map((size) => {
  const one = jsonEventLines(size, 1)[0].length;
  const events = Math.ceil(STREAM_BYTES / one);
  const bytes = Buffer.from(jsonEventLines(size, events).join(''));
  const chunks = chunked(bytes);
  return {
    size,
    events,
    bytes: bytes.length,
    chunks,
    sliced: slicedLines(chunks),
    decoded: decodedLines(chunks),
  };
});

const VARIANTS: Array<[string, (s: Stream) => void]> = [
  ['concat-slice', (s) => concatSlice(s.chunks)],
  ['buffer-line', (s) => bufferLines(s.chunks, utf8)],
  ['textdecoder-line', (s) => bufferLines(s.chunks, textDecoder)],
  ['parse-only-sliced', (s) => parseAll(s.sliced)],
  ['parse-only-decoded', (s) => parseAll(s.decoded)],
];

// ns/event per round, per size and variant
const results: Array<{ other: number | undefined; ns: Record<string, number> }> = [];
console.log(
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const s of streams)
  console.log(
    `${s.size}: ${s.events} events, ${(s.bytes / s.events).toFixed(0)} B/event, ${s.chunks.length} chunks`,
  );
for (let r = 0; r <= ROUNDS; r++) {
  const before = readMachineCpu();
  const c0 = ownCpuMs();
  const t0 = performance.now();
  const ns: Record<string, number> = {};
  for (const s of streams) {
    for (let v = 0; v < VARIANTS.length; v++) {
      const [name, fn] = VARIANTS[(v + r) % VARIANTS.length];
      const t = performance.now();
      fn(s);
      ns[`${s.size}/${name}`] = ((performance.now() - t) * 1e6) / s.events;
    }
  }
  const other = otherLoad(before, readMachineCpu(), ownCpuMs() - c0, performance.now() - t0)?.otherCpuPercent;
  if (r > 0) results.push({ other, ns });
  console.log(
    `round ${r}${r === 0 ? ' (warm-up)' : ''}: others ${other ?? '-'}%${other !== undefined && other > 10 ? ' BUSY' : ''}; load ${loadavg()[0].toFixed(2)}`,
  );
}
const quiet = results.filter((r) => r.other === undefined || r.other <= 10);
const used = quiet.length >= 5 ? quiet : results;
console.log(
  `\nmedians over ${used.length} rounds${used === quiet ? ' (quiet ones: others <= 10 % of a core)' : ' (ALL rounds: fewer than 5 quiet)'}; ` +
    `others per round: ${results.map((r) => r.other ?? '-').join(' ')}`,
);
console.log('size | variant | ns/event | ratio to concat-slice (median of per-round ratios)');
for (const s of streams)
  for (const [name] of VARIANTS) {
    const key = `${s.size}/${name}`;
    const base = `${s.size}/concat-slice`;
    const parseBase = `${s.size}/parse-only-sliced`;
    const ratioTo = name.startsWith('parse-only') ? parseBase : base;
    console.log(
      `${s.size} | ${name} | ${median(used.map((r) => r.ns[key])).toFixed(0)} | ${median(used.map((r) => r.ns[key] / r.ns[ratioTo])).toFixed(3)}${ratioTo === parseBase ? ' (to parse-only-sliced)' : ''}`,
    );
  }
if (checksum === 0) console.log('');
