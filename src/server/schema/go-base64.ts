/**
 * Where Go's `base64.StdEncoding.Decode` stops on a string, for the []byte fields (Secret.data,
 * ConfigMap.binaryData): the JSON decoder saves its `CorruptInputError`, and kube-apiserver
 * answers `illegal base64 data at input byte N` (encoding/base64 `decodeQuantum`). Go reads the
 * text in quanta of four symbols, skips '\r' and '\n' anywhere, wants padding to complete the
 * last quantum and nothing but newlines after it.
 */

const SYMBOLS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int8Array(128).fill(-1);
for (let i = 0; i < SYMBOLS.length; i++) DECODE[SYMBOLS.charCodeAt(i)] = i;

const isNewline = (c: number) => c === 10 || c === 13;

/**
 * The byte offset Go's standard base64 decoder reports for `text`, or -1 when it decodes.
 * Every accepted symbol is ASCII, so up to the first error a character's index is its byte offset.
 */
export function base64ErrorOffset(text: string): number {
  const n = text.length;
  let si = 0;
  while (si < n) {
    // One quantum (encoding/base64 decodeQuantum).
    for (let j = 0; j < 4; j++) {
      if (si === n) {
        if (j === 0) return -1;
        // A quantum cut short without padding.
        return si - j;
      }
      const c = text.charCodeAt(si);
      si++;
      if (c < 128 && DECODE[c] >= 0) continue;
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== 61 /* = */) return si - 1;
      // Padding: only after two or three symbols, "==" after two.
      if (j < 2) return si - 1;
      if (j === 2) {
        while (si < n && isNewline(text.charCodeAt(si))) si++;
        if (si === n) return n;
        if (text.charCodeAt(si) !== 61) return si - 1;
        si++;
      }
      while (si < n && isNewline(text.charCodeAt(si))) si++;
      return si < n ? si : -1;
    }
  }
  return -1;
}

/** The text of Go's `base64.CorruptInputError`. */
export function base64ErrorText(offset: number): string {
  return `illegal base64 data at input byte ${offset}`;
}
