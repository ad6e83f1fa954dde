/**
 * Answers in YAML, for a request whose Accept header chose `application/yaml`. kube-apiserver's
 * YAML serializer writes the object's JSON converted to YAML by sigs.k8s.io/yaml `JSONToYAML`,
 * that is go-yaml v2's encoder: map keys sorted, sequences not indented under their key, lines
 * folded at 80 columns, a multi-line string as a literal block, and a string that would read
 * back as another type under YAML 1.1 (`"yes"`, `"123"`, a timestamp) double-quoted, while one
 * that plain style cannot hold for its characters (`'a: b'`) is single-quoted.
 */
import { Document, isScalar, visit } from 'yaml';

/** A JSON text as go-yaml v2 writes the value it holds. */
export function jsonToYaml(json: string): string {
  const doc = new Document(JSON.parse(json), {
    sortMapEntries: (a, b) => goKeyOrder(String(a.key), String(b.key)),
  });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && resolvesToNonString(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // Keys are nodes too: visit reaches them through their pairs.
  visit(doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && typeof pair.key.value === 'string' && resolvesToNonString(pair.key.value))
        pair.key.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({
    indentSeq: false,
    lineWidth: 80,
    minContentWidth: 0,
    singleQuote: true,
    blockQuote: 'literal',
    nullStr: 'null',
  });
}

/** go-yaml v2 resolve.go's words that read as a bool, a null, a float or the merge key. */
const RESERVED = new Set(
  [
    'y Y yes Yes YES true True TRUE on On ON',
    'n N no No NO false False FALSE off Off OFF',
    '~ null Null NULL',
    '.nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<',
  ]
    .join(' ')
    .split(' '),
);

/** Go strconv.ParseInt/ParseUint with base 0 (underscores already taken out). */
const GO_INT = /^[-+]?(?:0|[1-9][0-9]*|0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+)$/;
/** go-yaml v2 `yamlStyleFloat`. */
const YAML_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** go-yaml v2 `isBase60Float`: quoted so YAML 1.1 readers do not take it for a sexagesimal. */
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
/** go-yaml v2 `parseTimestamp`'s layouts. */
const TIMESTAMP =
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ ])[0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?)?$/;

/**
 * go-yaml v2 `resolve` of a plain scalar: whether `s`, written plain, would read back as anything
 * but a string; the encoder quotes those (double quotes) and the base-60 floats.
 */
function resolvesToNonString(s: string): boolean {
  if (s === '' || RESERVED.has(s)) return true;
  if (BASE60_FLOAT.test(s)) return true;
  const first = s.charCodeAt(0);
  const hinted = (first >= 0x30 && first <= 0x39) || s[0] === '-' || s[0] === '+' || s[0] === '.';
  if (!hinted) return false;
  const plain = s.replaceAll('_', '');
  return GO_INT.test(plain) || YAML_FLOAT.test(plain) || TIMESTAMP.test(s);
}

const isLetter = (ch: string) => /^\p{L}$/u.test(ch);
const isDigit = (ch: string) => ch >= '0' && ch <= '9';

/**
 * go-yaml v2 `keyList.Less` for two string keys: rune by rune, a letter after anything else,
 * two letters by code point, and runs of digits by their value ("a2" before "a10").
 */
function goKeyOrder(a: string, b: string): number {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]);
    const bl = isLetter(br[i]);
    if (al && bl) return ar[i] < br[i] ? -1 : 1;
    if (al || bl) return bl ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + Number(ar[ai]);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ar[i] < br[i] ? -1 : 1;
  }
  return ar.length - br.length;
}
