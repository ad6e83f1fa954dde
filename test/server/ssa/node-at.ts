/** Test helper: the node at a path of a merge schema. */
import type { MergeNode } from '../../../src/server/ssa/merge-schema.js';

/** The node at a dotted path, `[]` stepping into a list's items and `{}` into a map's values. */
export function nodeAt(root: MergeNode, path: string): MergeNode {
  let node = root;
  for (const step of path.split('.')) {
    for (const part of step.split(/(?=\[\]|\{\})/)) {
      if (part === '[]') {
        if (node.kind !== 'list') throw new Error(`${path}: ${part} of a ${node.kind}`);
        node = node.items;
      } else if (part === '{}') {
        if (node.kind !== 'map' || !node.values) throw new Error(`${path}: ${part} of a ${node.kind}`);
        node = node.values;
      } else {
        if (node.kind !== 'map') throw new Error(`${path}: .${part} of a ${node.kind}`);
        const next = node.field(part);
        if (!next) throw new Error(`${path}: no field ${part}`);
        node = next;
      }
    }
  }
  return node;
}
