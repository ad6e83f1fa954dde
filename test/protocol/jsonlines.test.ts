import { describe, expect, it } from 'vitest';
import {
  decodeJsonLines,
  JsonLinesDecoder,
  JsonLinesError,
  parseJsonLine,
} from '../../src/protocol/jsonlines.js';
import { mulberry32 } from '../helpers/random.js';

const utf8 = new TextEncoder();

/** A watch stream exercising multibyte UTF-8, CRLF, blank and whitespace-only lines. */
const events = [
  { type: 'ADDED', object: { metadata: { name: 'café', resourceVersion: '1' } } },
  { type: 'MODIFIED', object: { metadata: { name: '日本語', labels: { emoji: '😀🎉' } } } },
  { type: 'BOOKMARK', object: { metadata: { resourceVersion: '3' } } },
  { type: 'DELETED', object: { metadata: { name: 'Ωmega', annotations: { note: 'é\u2028\\n' } } } },
  { type: 'ERROR', object: { kind: 'Status', code: 410, message: 'too old resource version: 5 (10)' } },
];
const streamText =
  JSON.stringify(events[0]) +
  '\n' +
  JSON.stringify(events[1]) +
  '\r\n\n   \t\r\n' +
  JSON.stringify(events[2]) +
  '\n' +
  `  ${JSON.stringify(events[3])}  \n` +
  JSON.stringify(events[4]);
const stream = utf8.encode(streamText);

/** Feeds `bytes` cut at `cuts` (sorted offsets) and returns everything decoded, end() included. */
function decodeInPieces(bytes: Uint8Array, cuts: number[]): unknown[] {
  const decoder = new JsonLinesDecoder();
  const out: unknown[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.subarray(from, cut)));
    from = cut;
  }
  out.push(...decoder.end());
  return out;
}

describe('JsonLinesDecoder', () => {
  it('decodes many lines in one chunk, skipping blank ones and tolerating CRLF', () => {
    expect(decodeInPieces(stream, [])).toEqual(events);
  });

  it('returns only complete lines from push; end() flushes the unterminated last one', () => {
    const decoder = new JsonLinesDecoder();
    expect(decoder.push(utf8.encode('{"a":1}\n{"b":'))).toEqual([{ a: 1 }]);
    expect(decoder.push(utf8.encode('2}'))).toEqual([]);
    expect(decoder.end()).toEqual([{ b: 2 }]);
    expect(decoder.end()).toEqual([]);
  });

  it('end() with only whitespace pending returns nothing', () => {
    const decoder = new JsonLinesDecoder();
    decoder.push(utf8.encode('{"a":1}\n  \r'));
    expect(decoder.end()).toEqual([]);
  });

  it('gives the same output for every single split point', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      expect(decodeInPieces(stream, [cut])).toEqual(events);
    }
  });

  it('gives the same output for every pair of split points', () => {
    for (let a = 0; a <= stream.length; a += 5) {
      for (let b = a; b <= stream.length; b += 11) expect(decodeInPieces(stream, [a, b])).toEqual(events);
    }
  });

  it('gives the same output fed one byte at a time', () => {
    expect(
      decodeInPieces(
        stream,
        Array.from({ length: stream.length }, (_, i) => i),
      ),
    ).toEqual(events);
  });

  it('gives the same output for random splits', () => {
    const rand = mulberry32(2024);
    for (let n = 0; n < 500; n++) {
      const cuts = Array.from({ length: Math.floor(rand() * 12) }, () => Math.floor(rand() * stream.length));
      expect(
        decodeInPieces(
          stream,
          cuts.sort((x, y) => x - y),
        ),
      ).toEqual(events);
    }
  });

  it('copies pending bytes, so a reused caller buffer cannot corrupt a split line', () => {
    const decoder = new JsonLinesDecoder();
    const buf = Buffer.from('{"name":"ab');
    expect(decoder.push(buf)).toEqual([]);
    buf.fill(0x78);
    expect(decoder.push(Buffer.from('c"}\n'))).toEqual([{ name: 'abc' }]);
  });

  it('turns invalid UTF-8 into U+FFFD, as Go does', () => {
    const bytes = new Uint8Array([...utf8.encode('{"a":"'), 0xff, ...utf8.encode('"}\n')]);
    expect(new JsonLinesDecoder().push(bytes)).toEqual([{ a: '\ufffd' }]);
  });

  it('handles a huge line in many small chunks in linear time', () => {
    const big = { type: 'ADDED', object: { data: 'x'.repeat(4_000_000), tail: 'é😀' } };
    const bytes = utf8.encode(`${JSON.stringify(big)}\n`);
    const decoder = new JsonLinesDecoder();
    const out: unknown[] = [];
    // Rescanning the line at every chunk would be quadratic: 4,000 chunks of a 4 MB line run for minutes,
    // and the test's timeout catches it; speed is the benchmarks' business.
    for (let at = 0; at < bytes.length; at += 997) out.push(...decoder.push(bytes.subarray(at, at + 997)));
    expect(out).toEqual([big]);
  });
});

describe('malformed lines', () => {
  it('throws JsonLinesError with the byte offset, an excerpt, and the values before it', () => {
    const decoder = new JsonLinesDecoder();
    decoder.push(utf8.encode('{"é":1}\n'));
    let caught: unknown;
    try {
      decoder.push(utf8.encode('{"a":2}\n{"oops" 3}\n{"b":4}\n'));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(JsonLinesError);
    const err = caught as JsonLinesError;
    expect(err.offset).toBe(17);
    expect(err.excerpt).toBe('{"oops" 3}');
    expect(err.values).toEqual([{ a: 2 }]);
    expect(err.message).toContain('at byte 17');
    expect(err.message).toContain('{\\"oops\\" 3}');
  });

  it('refuses further input after an error, without repeating the values', () => {
    const decoder = new JsonLinesDecoder();
    expect(() => decoder.push(utf8.encode('{"a":1}\nnope\n'))).toThrow(JsonLinesError);
    let again: unknown;
    try {
      decoder.push(utf8.encode('{"b":2}\n'));
    } catch (err) {
      again = err;
    }
    expect(again).toBeInstanceOf(JsonLinesError);
    expect((again as JsonLinesError).values).toEqual([]);
    expect(() => decoder.end()).toThrow(JsonLinesError);
  });

  it('end() throws when the stream stops mid-line', () => {
    const decoder = new JsonLinesDecoder();
    decoder.push(utf8.encode('{"a":1}\n{"type":"ADD'));
    expect(() => decoder.end()).toThrow(/malformed JSON line at byte 8/);
  });

  it('cuts long excerpts', () => {
    const err = (() => {
      try {
        parseJsonLine(`{${'y'.repeat(10_000)}`, 5);
      } catch (e) {
        return e as JsonLinesError;
      }
    })();
    expect(err).toBeInstanceOf(JsonLinesError);
    expect(err!.offset).toBe(5);
    expect(err!.excerpt.length).toBeLessThan(80);
    expect(err!.message.length).toBeLessThan(300);
  });

  it('parseJsonLine parses a valid line', () => {
    expect(parseJsonLine(' {"a":[1,2]}\r')).toEqual({ a: [1, 2] });
  });
});

describe('decodeJsonLines', () => {
  async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }

  it('yields every value of an async byte stream', async () => {
    const out: unknown[] = [];
    for await (const value of decodeJsonLines(chunks(stream, 5))) out.push(value);
    expect(out).toEqual(events);
  });

  it('rejects on a malformed last line', async () => {
    const bytes = utf8.encode('{"a":1}\n{"a":');
    const out: unknown[] = [];
    await expect(
      (async () => {
        for await (const value of decodeJsonLines(chunks(bytes, 3))) out.push(value);
      })(),
    ).rejects.toThrow(JsonLinesError);
    expect(out).toEqual([{ a: 1 }]);
  });
});
