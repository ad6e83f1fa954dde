/**
 * PEM blocks read as Go's encoding/pem `Decode` reads them, so that what kube-apiserver's
 * validation accepts (a CSR's request, an issued certificate, a trust bundle) is what is accepted
 * here: text before a block is skipped, a block whose END line or base64 body is wrong is passed
 * over and the search goes on after its BEGIN line, `Key: value` lines after the BEGIN line are
 * headers, and the body is standard, padded base64 with spaces, tabs and line breaks ignored.
 */

/** One PEM block: its type (`CERTIFICATE REQUEST`), its headers and its DER bytes. */
export interface PemBlock {
  type: string;
  headers: Record<string, string>;
  bytes: Buffer;
}

const BEGIN = Buffer.from('\n-----BEGIN ');
const END = Buffer.from('\n-----END ');
const DASHES = Buffer.from('-----');

/** A line without its line break and trailing spaces, tabs and CRs; and what follows it. */
function getLine(data: Buffer): [Buffer, Buffer] {
  const at = data.indexOf(0x0a);
  let line = at < 0 ? data : data.subarray(0, at);
  const rest = at < 0 ? Buffer.alloc(0) : data.subarray(at + 1);
  let end = line.length;
  while (end > 0 && (line[end - 1] === 0x20 || line[end - 1] === 0x09 || line[end - 1] === 0x0d)) end--;
  line = line.subarray(0, end);
  return [line, rest];
}

/** Go's `base64.StdEncoding.Decode` after pem's removal of spaces and tabs: undefined when malformed. */
function decodeBase64(data: Buffer): Buffer | undefined {
  const text = data.toString('latin1').replace(/[ \t\r\n]/g, '');
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text))
    return undefined;
  return Buffer.from(text, 'base64');
}

/** The first PEM block in `data` and the bytes after it; undefined when there is none. */
export function decodePem(data: Buffer): { block: PemBlock; rest: Buffer } | undefined {
  let rest = data;
  for (;;) {
    if (rest.subarray(0, BEGIN.length - 1).equals(BEGIN.subarray(1))) rest = rest.subarray(BEGIN.length - 1);
    else {
      const at = rest.indexOf(BEGIN);
      if (at < 0) return undefined;
      rest = rest.subarray(at + BEGIN.length);
    }
    let typeLine: Buffer;
    [typeLine, rest] = getLine(rest);
    if (!endsWith(typeLine, DASHES)) continue;
    typeLine = typeLine.subarray(0, typeLine.length - DASHES.length);
    const headers: Record<string, string> = {};
    let more = true;
    while (more) {
      if (rest.length === 0) return undefined;
      const [line, next] = getLine(rest);
      const colon = line.indexOf(0x3a);
      if (colon < 0) more = false;
      else {
        headers[line.subarray(0, colon).toString('latin1').trim()] = line
          .subarray(colon + 1)
          .toString('latin1')
          .trim();
        rest = next;
      }
    }
    let endIndex: number;
    let trailerIndex: number;
    // Without headers, the END line may follow at once, with no line break of its own.
    if (Object.keys(headers).length === 0 && rest.subarray(0, END.length - 1).equals(END.subarray(1))) {
      endIndex = 0;
      trailerIndex = END.length - 1;
    } else {
      endIndex = rest.indexOf(END);
      trailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;
    const trailerLength = typeLine.length + DASHES.length;
    const trailer = rest.subarray(trailerIndex);
    if (trailer.length < trailerLength) continue;
    const endLine = trailer.subarray(0, trailerLength);
    if (!endLine.subarray(0, typeLine.length).equals(typeLine) || !endsWith(endLine, DASHES)) continue;
    // Only whitespace may follow the END line's dashes.
    if (getLine(trailer.subarray(trailerLength))[0].length !== 0) continue;
    const bytes = decodeBase64(rest.subarray(0, endIndex));
    if (bytes === undefined) continue;
    const [, after] = getLine(rest.subarray(endIndex + END.length - 1));
    return { block: { type: typeLine.toString('latin1'), headers, bytes }, rest: after };
  }
}

function endsWith(data: Buffer, suffix: Buffer): boolean {
  return data.length >= suffix.length && data.subarray(data.length - suffix.length).equals(suffix);
}

/** Every PEM block in `data`, in order (Go's loop of `pem.Decode` until it finds none). */
export function decodeAllPem(data: Buffer): PemBlock[] {
  const blocks: PemBlock[] = [];
  for (let rest = data; ; ) {
    const found = decodePem(rest);
    if (!found) return blocks;
    blocks.push(found.block);
    rest = found.rest;
  }
}
