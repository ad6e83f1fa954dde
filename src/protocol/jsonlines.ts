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

/** Decodes one complete line (without its newline) that starts at stream byte `offset`. */
export type LineDecoder = (bytes: Uint8Array, offset: number) => unknown;

/**
 * Incremental decoder: feed chunks with {@link JsonLinesDecoder.push}, then call
 * {@link JsonLinesDecoder.end} when the stream closes. A malformed line poisons
 * the decoder (the rest of the stream can no longer be trusted to be in step), so
 * every later call throws a copy of the first error (with no values); the owner
 * restarts the watch.
 */
export class JsonLinesDecoder {
  /** Pieces of the current unterminated line, concatenated once when its newline arrives. */
  #pieces: Uint8Array[] = [];
  #pendingBytes = 0;
  /** Stream offset of the current line's first byte. */
  #lineStart = 0;
  #failed: JsonLinesError | undefined;
  // Not fatal: like Go's encoding/json, invalid UTF-8 becomes U+FFFD rather than an error.
  readonly #utf8 = new TextDecoder('utf-8');
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
    this.#throwIfFailed();
    const out: unknown[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.#line(this.#takeLine(chunk.subarray(start, nl)), out);
      start = nl + 1;
    }
    if (start < chunk.length) {
      // Copy: the caller may reuse its buffer (Node pools small Buffers).
      this.#pieces.push(new Uint8Array(chunk.subarray(start)));
      this.#pendingBytes += chunk.length - start;
    }
    return out;
  }

  /**
   * Flushes a final line that had no newline. Throws if it is not valid JSON: a
   * stream cut mid-line is a broken stream, not a short one.
   */
  end(): unknown[] {
    this.#throwIfFailed();
    const out: unknown[] = [];
    if (this.#pendingBytes > 0) this.#line(this.#takeLine(new Uint8Array(0)), out, false);
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
    const line = new Uint8Array(this.#pendingBytes + tail.length);
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

  /** Parses one complete line into `out` and advances the stream offset past it (and its newline). */
  #line(bytes: Uint8Array, out: unknown[], terminated = true): void {
    const offset = this.#lineStart;
    this.#lineStart += bytes.length + (terminated ? 1 : 0);
    if (isBlank(bytes)) return;
    try {
      out.push(
        this.#decodeLine ? this.#decodeLine(bytes, offset) : parseJsonLine(this.#utf8.decode(bytes), offset),
      );
    } catch (err) {
      if (!(err instanceof JsonLinesError)) throw err;
      this.#failed = new JsonLinesError(err.message, err.offset, err.excerpt, out, { cause: err.cause });
      throw this.#failed;
    }
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
