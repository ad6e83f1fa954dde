/**
 * The parsed tree of @marcbachmann/cel-js read structurally (op, args, source range): what the
 * rewriting, the field check and the cost estimate walk.
 */

/** A parsed node (the library's AST, read structurally). */
export interface Node {
  op: string;
  args: unknown;
  start: number;
  end: number;
}
export const isNode = (x: unknown): x is Node =>
  typeof x === 'object' && x !== null && 'op' in x && 'start' in x;

const kids = new WeakMap<Node, Node[]>();

/** The nodes under `n` in source order (kept: the estimate, field check and rewrite each walk them). */
export function children(n: Node): Node[] {
  let out = kids.get(n);
  if (out === undefined) {
    out = childrenOf(n);
    kids.set(n, out);
  }
  return out;
}

function childrenOf(n: Node): Node[] {
  const out: Node[] = [];
  const visit = (x: unknown): void => {
    if (isNode(x)) out.push(x);
    else if (Array.isArray(x)) x.forEach(visit);
  };
  visit(n.args);
  return out.sort((a, b) => a.start - b.start);
}

export const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter']);
/** A comprehension call: `receiver.all(x, body)`. */
export function comprehension(n: Node): { receiver: Node; iterVar: string; body: Node[] } | undefined {
  if (n.op !== 'rcall' || !Array.isArray(n.args)) return undefined;
  const [name, receiver, args] = n.args as [string, Node, Node[]];
  if (!COMPREHENSIONS.has(name) || !Array.isArray(args) || args.length < 2) return undefined;
  const iter = args[0];
  if (!isNode(iter) || iter.op !== 'id') return undefined;
  return { receiver, iterVar: iter.args as string, body: args.slice(1) };
}

/** A select chain down to a variable (`a.b.c`), the only argument the library's `has` takes. */
export function isSelectChain(n: Node): boolean {
  if (n.op === 'id') return true;
  return (n.op === '.' || n.op === '.?') && isSelectChain((n.args as [Node, string])[0]);
}
