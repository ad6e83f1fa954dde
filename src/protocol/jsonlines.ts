/**
 * A chunk-safe decoder for newline-delimited JSON, the framing of a watch stream.
 * The server flushes whenever it runs dry, so a line may be split across chunks,
 * a chunk may hold many lines, and UTF-8 may be cut mid-character. The decoder
 * therefore works on bytes: it splits on 0x0A (which never occurs inside a
 * multi-byte UTF-8 sequence) and decodes only complete lines.
 */

/** A line that is not valid JSON, with where it started in the stream. */
export class JsonLinesError extends Error {
  /** Byte offset of the line's first byte from the start of the stream. */
  readonly offset: number;
  /** The start of the offending line, for the message and logs. */
  readonly excerpt: string;
  /** Values decoded from the same chunk before the bad line, so none is lost to the caller. */
  readonly values: unknown[];

  constructor(
    message: string,
    offset: number,
    excerpt: string,
    values: unknown[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'JsonLinesError';
    this.offset = offset;
    this.excerpt = excerpt;
    this.values = values;
  }
}

const excerptLength = 60;

/** The first few characters of a line, never ending in half a surrogate pair. */
function excerptOf(line: string): string {
  if (line.length <= excerptLength) return line;
  let cut = line.slice(0, excerptLength);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** Parses one decoded line, turning a syntax error into a {@link JsonLinesError} at `offset`. */
export function parseJsonLine(line: string, offset = 0): unknown {
  try {
    return JSON.parse(line);
  } catch (err) {
    const excerpt = excerptOf(line);
    const reason = err instanceof Error ? err.message : String(err);
    throw new JsonLinesError(
      `malformed JSON line at byte ${offset}: ${reason}: ${JSON.stringify(excerpt)}`,
      offset,
      excerpt,
      [],
      { cause: err },
    );
  }
}

/** True when the bytes are only JSON whitespace (space, tab, CR, LF): such lines are keep-alives, not events. */
function isBlank(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0a) return false;
  }
  return true;
}

/** The same for a decoded line. */
const BLANK = /^[ \t\r\n]*$/;

/** Decodes one complete line (without its newline) that starts at stream byte `offset`. */
export type LineDecoder = (bytes: Uint8Array, offset: number) => unknown;

/** A Buffer over the same memory (no copy): Buffers decode UTF-8 ranges without a view per line. */
const asBuffer = (chunk: Uint8Array): Buffer =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * Incremental decoder: feed chunks with {@link JsonLinesDecoder.push}, then call
 * {@link JsonLinesDecoder.end} when the stream closes. A malformed line poisons
 * the decoder (the rest of the stream can no longer be trusted to be in step), so
 * every later call throws a copy of the first error (with no values); the owner
 * restarts the watch.
 *
 * Cost: a chunk's complete lines are decoded from UTF-8 as one string, and each
 * line handed to JSON.parse is a slice of it (no copy, no view per line); only a
 * line split across chunks is copied, once, when its newline arrives.
 */
export class JsonLinesDecoder {
  /** Pieces of the current unterminated line, concatenated once when its newline arrives. */
  #pieces: Uint8Array[] = [];
  #pendingBytes = 0;
  /** Stream offset of the current line's first byte. */
  #lineStart = 0;
  #failed: JsonLinesError | undefined;
  readonly #decodeLine: LineDecoder | undefined;

  /**
   * `decodeLine` replaces UTF-8 decoding plus {@link parseJsonLine} for each
   * non-blank line (e.g. to decode lazily); it must throw a
   * {@link JsonLinesError} for a malformed line. It gets the line's bytes,
   * valid only during the call.
   */
  constructor(opts: { decodeLine?: LineDecoder } = {}) {
    this.#decodeLine = opts.decodeLine;
  }

  /** Decodes every line `chunk` completes; bytes after its last newline wait for the next chunk. */
  push(chunk: Uint8Array): unknown[] {
    const out: unknown[] = [];
    this.pushInto(chunk, out);
    return out;
  }

  /**
   * {@link JsonLinesDecoder.push}, appending to `out`: many chunks decoded
   * into one array (on a malformed line, `out` holds the values before it).
   */
  pushInto(chunk: Uint8Array, out: unknown[]): void {
    this.#throwIfFailed();
    const buf = asBuffer(chunk);
    let start = 0;
    const first = buf.indexOf(0x0a);
    if (first !== -1) {
      if (this.#pieces.length > 0) {
        this.#bytesLine(this.#takeLine(buf.subarray(0, first)), out, true);
        start = first + 1;
      }
      const last = buf.lastIndexOf(0x0a);
      if (last >= start) {
        if (this.#decodeLine) {
          // Views of a plain Uint8Array: a Buffer's subarray costs a Buffer per line.
          const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
          for (let nl = buf.indexOf(0x0a, start); nl !== -1 && nl <= last; nl = buf.indexOf(0x0a, start)) {
            this.#bytesLine(bytes.subarray(start, nl), out, true);
            start = nl + 1;
          }
        } else {
          this.#textLines(buf, start, last, out);
          start = last + 1;
        }
      }
    }
    if (start < buf.length) {
      // Copy: the caller may reuse its buffer (Node pools small Buffers).
      this.#pieces.push(new Uint8Array(buf.subarray(start)));
      this.#pendingBytes += buf.length - start;
    }
  }

  /**
   * Flushes a final line that had no newline. Throws if it is not valid JSON: a
   * stream cut mid-line is a broken stream, not a short one.
   */
  end(): unknown[] {
    this.#throwIfFailed();
    const out: unknown[] = [];
    if (this.#pendingBytes > 0) this.#bytesLine(this.#takeLine(new Uint8Array(0)), out, false);
    return out;
  }

  /** Refuses to go on after a bad line; `values` is empty so nothing is handed out twice. */
  #throwIfFailed(): void {
    const failed = this.#failed;
    if (failed)
      throw new JsonLinesError(failed.message, failed.offset, failed.excerpt, [], { cause: failed });
  }

  /** The pending pieces plus `tail` as one line, resetting the pending state. */
  #takeLine(tail: Uint8Array): Uint8Array {
    if (this.#pieces.length === 0) return tail;
    const line = Buffer.allocUnsafe(this.#pendingBytes + tail.length);
    let at = 0;
    for (const piece of this.#pieces) {
      line.set(piece, at);
      at += piece.length;
    }
    line.set(tail, at);
    this.#pieces = [];
    this.#pendingBytes = 0;
    return line;
  }

  /** Decodes one complete line given as bytes into `out`, and advances the stream offset past it. */
  #bytesLine(bytes: Uint8Array, out: unknown[], terminated: boolean): void {
    const offset = this.#lineStart;
    this.#lineStart += bytes.length + (terminated ? 1 : 0);
    // A line that starts with `{` is not blank: the common case skips the scan.
    if (bytes[0] !== 0x7b && isBlank(bytes)) return;
    try {
      // Not fatal: like Go's encoding/json, invalid UTF-8 becomes U+FFFD rather than an error.
      out.push(
        this.#decodeLine
          ? this.#decodeLine(bytes, offset)
          : parseJsonLine(asBuffer(bytes).toString('utf8'), offset),
      );
    } catch (err) {
      this.#fail(err, out);
    }
  }

  /** Parses the lines of `buf` from `start` up to the newline at `last`, as one decoded text. */
  #textLines(buf: Buffer, start: number, last: number, out: unknown[]): void {
    const text = buf.toString('utf8', start, last + 1);
    const chunkStart = this.#lineStart;
    this.#lineStart += last + 1 - start;
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = text.slice(from, nl);
      const at = from;
      from = nl + 1;
      // A line that starts with `{` is not blank: the common case skips the test.
      if (line.charCodeAt(0) !== 0x7b && BLANK.test(line)) continue;
      try {
        out.push(JSON.parse(line));
      } catch {
        // Rare: parse again for the error, at the line's byte offset in the stream.
        try {
          parseJsonLine(line, chunkStart + Buffer.byteLength(text.slice(0, at)));
        } catch (err) {
          this.#fail(err, out);
        }
      }
    }
  }

  /** A malformed line poisons the decoder, keeping the values decoded before it. */
  #fail(err: unknown, out: unknown[]): never {
    if (!(err instanceof JsonLinesError)) throw err;
    this.#failed = new JsonLinesError(err.message, err.offset, err.excerpt, out, { cause: err.cause });
    throw this.#failed;
  }
}

/** Decodes a byte stream (a response body, a socket) into its JSON values, one per line. */
export async function* decodeJsonLines(
  source: AsyncIterable<Uint8Array>,
): AsyncGenerator<unknown, void, undefined> {
  const decoder = new JsonLinesDecoder();
  for await (const chunk of source) yield* decoder.push(chunk);
  yield* decoder.end();
}
