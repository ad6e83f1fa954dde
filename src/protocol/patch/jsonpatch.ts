/**
 * JSON patch (RFC 6902), `application/json-patch+json`, with JSON pointers
 * (RFC 6901). Ops apply in order to a private copy, so a failing op leaves the
 * caller's object untouched: the patch is all-or-nothing, as RFC 6902 §5 asks.
 */
import { StatusError } from '../status.js';
import { cloneJson, getOwn, isJsonObject, type JsonObject, jsonEqual, setOwn } from './merge.js';

/** kube-apiserver refuses longer JSON patches with 413 (`maxJSONPatchOperations`). */
export const MAX_JSON_PATCH_OPERATIONS = 10_000;

/** One validated operation. */
interface Operation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string[];
  from?: string[];
  value?: unknown;
  /** `op N (name) at "path"`, for error messages. */
  where: string;
}

/** Where a pointer lands: the container holding the last token, and that token. */
interface Location {
  parent: unknown;
  token: string;
}

/**
 * Applies a JSON patch: `add`, `remove`, `replace`, `move`, `copy` and `test`.
 * A malformed document is 400 BadRequest; a missing path or a failed `test` is
 * 422 Invalid, naming the op and path. Pure: `target` is never changed.
 */
export function applyJsonPatch(target: unknown, ops: unknown): unknown {
  if (!Array.isArray(ops)) {
    throw StatusError.of('BadRequest', 'json patch must be a JSON array of operations');
  }
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    throw StatusError.of(
      'RequestEntityTooLarge',
      `The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`,
    );
  }
  // Validate every op before applying any, so a typo in op 5 is a 400 even if op 2 would fail.
  const parsed = ops.map((raw, index) => parseOperation(raw, index));
  let doc = cloneJson(target);
  for (const op of parsed) doc = applyOperation(doc, op);
  return doc;
}

function parseOperation(raw: unknown, index: number): Operation {
  if (!isJsonObject(raw)) throw badOp(`json patch op ${index} must be a JSON object`);
  const name = getOwn(raw, 'op');
  const path = getOwn(raw, 'path');
  if (typeof name !== 'string') throw badOp(`json patch op ${index} has no "op" string`);
  if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(name)) {
    throw badOp(`json patch op ${index} has unknown op "${name}"`);
  }
  if (typeof path !== 'string') throw badOp(`json patch op ${index} (${name}) has no "path" string`);
  const where = `op ${index} (${name}) at "${path}"`;
  const op: Operation = { op: name as Operation['op'], path: parsePointer(path, where), where };
  // RFC 6902 §4: `value` is required (it may be null), `from` is a pointer; extra members are ignored.
  if (name === 'add' || name === 'replace' || name === 'test') {
    if (!Object.hasOwn(raw, 'value')) throw badOp(`json patch ${where} has no "value"`);
    op.value = raw.value;
  }
  if (name === 'move' || name === 'copy') {
    const from = getOwn(raw, 'from');
    if (typeof from !== 'string') throw badOp(`json patch ${where} has no "from" string`);
    op.from = parsePointer(from, where);
    op.where = `${where} from "${from}"`;
  }
  return op;
}

/** Splits an RFC 6901 pointer into unescaped tokens; `""` is the whole document. */
function parsePointer(pointer: string, where: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw badOp(`json patch ${where}: pointer must be empty or start with "/"`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) throw badOp(`json patch ${where}: bad escape in pointer token "${token}"`);
      // ~1 first, then ~0, so "~01" becomes "~1" and not "/" (RFC 6901 §4).
      return token.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

function applyOperation(doc: unknown, op: Operation): unknown {
  switch (op.op) {
    case 'add':
      return add(doc, op.path, cloneJson(op.value), op);
    case 'remove':
      return remove(doc, op.path, op).doc;
    case 'replace':
      return replace(doc, op.path, cloneJson(op.value), op);
    case 'move': {
      const from = op.from!;
      if (from.length === op.path.length && from.every((token, i) => token === op.path[i])) {
        get(doc, from, op);
        return doc;
      }
      // Moving a value into its own child would leave it nowhere (RFC 6902 §4.4).
      if (op.path.length > from.length && from.every((token, i) => token === op.path[i])) {
        throw badOp(`json patch ${op.where}: cannot move a value into one of its own children`);
      }
      const { doc: without, value } = remove(doc, from, op);
      return add(without, op.path, value, op);
    }
    case 'copy':
      return add(doc, op.path, cloneJson(get(doc, op.from!, op)), op);
    case 'test':
      if (!jsonEqual(get(doc, op.path, op), op.value)) {
        throw StatusError.of('Invalid', `json patch ${op.where}: test failed, the value differs`);
      }
      return doc;
  }
}

/** The value at `path`; 422 when it does not exist. */
function get(doc: unknown, path: string[], op: Operation): unknown {
  let node = doc;
  for (const token of path) {
    if (Array.isArray(node)) node = node[arrayIndex(node, token, op, false)];
    else if (isJsonObject(node) && Object.hasOwn(node, token)) node = node[token];
    else throw missing(op, path);
  }
  return node;
}

/** Resolves all but the last token; the parent must be an object or an array. */
function locate(doc: unknown, path: string[], op: Operation): Location {
  const parent = get(doc, path.slice(0, -1), op);
  if (!Array.isArray(parent) && !isJsonObject(parent)) throw missing(op, path);
  return { parent, token: path[path.length - 1] };
}

function add(doc: unknown, path: string[], value: unknown, op: Operation): unknown {
  if (path.length === 0) return value;
  const { parent, token } = locate(doc, path, op);
  if (Array.isArray(parent)) {
    const index = token === '-' ? parent.length : arrayIndex(parent, token, op, true);
    parent.splice(index, 0, value);
  } else {
    setOwn(parent as JsonObject, token, value);
  }
  return doc;
}

/** Replaces in place, so an object's key order stays as it was. */
function replace(doc: unknown, path: string[], value: unknown, op: Operation): unknown {
  if (path.length === 0) return value;
  const { parent, token } = locate(doc, path, op);
  if (Array.isArray(parent)) {
    parent[arrayIndex(parent, token, op, false)] = value;
  } else {
    if (!Object.hasOwn(parent as JsonObject, token)) throw missing(op, path);
    setOwn(parent as JsonObject, token, value);
  }
  return doc;
}

function remove(doc: unknown, path: string[], op: Operation): { doc: unknown; value: unknown } {
  // A stored object cannot become nothing; kube-apiserver would fail to decode the result anyway.
  if (path.length === 0) {
    throw StatusError.of('Invalid', `json patch ${op.where}: cannot remove the whole document`);
  }
  const { parent, token } = locate(doc, path, op);
  if (Array.isArray(parent)) {
    const [value] = parent.splice(arrayIndex(parent, token, op, false), 1);
    return { doc, value };
  }
  const obj = parent as JsonObject;
  if (!Object.hasOwn(obj, token)) throw missing(op, path);
  const value = obj[token];
  delete obj[token];
  return { doc, value };
}

/** An array index token: digits without leading zeros; `< length`, or `<= length` when inserting. */
function arrayIndex(array: unknown[], token: string, op: Operation, inserting: boolean): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw StatusError.of('Invalid', `json patch ${op.where}: "${token}" is not a valid array index`);
  }
  const index = Number(token);
  if (index > array.length || (!inserting && index === array.length)) {
    throw StatusError.of(
      'Invalid',
      `json patch ${op.where}: index ${index} is out of range for an array of length ${array.length}`,
    );
  }
  return index;
}

function missing(op: Operation, path: string[]): StatusError {
  const pointer = path.map((t) => '/' + t.replaceAll('~', '~0').replaceAll('/', '~1')).join('');
  return StatusError.of('Invalid', `json patch ${op.where}: path "${pointer}" does not exist`);
}

function badOp(message: string): StatusError {
  return StatusError.of('BadRequest', message);
}
