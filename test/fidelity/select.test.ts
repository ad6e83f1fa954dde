import { expect, it } from 'vitest';
import { select } from './runner.js';

it('select', () => {
  const v = {
    groups: [
      { name: 'apps', v: 1 },
      { name: 'a.k8s.io', v: 2 },
    ],
    items: [{ metadata: { name: 'x.y' }, z: 3 }],
  };
  expect(select(v, 'groups[name=a.k8s.io].v')).toBe(2);
  expect(select(v, 'items[metadata.name=x.y].z')).toBe(3);
  expect(select(v, 'groups[name=apps]')).toEqual({ name: 'apps', v: 1 });
  expect(select(v, 'nope.x')).toBe(undefined);
});
