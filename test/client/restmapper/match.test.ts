/**
 * kubectl's name rules over hand-written discovery snapshots (the shapes a
 * real cluster serves, where watchmark's server has no such types):
 * plural over short name, group-prefix short names, versions, kinds, and
 * the rare ambiguity kubectl reports.
 */
import { describe, expect, it } from 'vitest';
import type {
  DiscoveredGroup,
  DiscoveredResource,
} from '../../../src/client/restmapper/discovery-documents.js';
import {
  AmbiguousResourceError,
  indexGroups,
  matchCategory,
  matchKind,
  matchName,
} from '../../../src/client/restmapper/name-match.js';

function res(plural: string, kind: string, more: Partial<DiscoveredResource> = {}): DiscoveredResource {
  return {
    plural,
    singular: kind.toLowerCase(),
    kind,
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: [],
    ...more,
  };
}

const groups: DiscoveredGroup[] = [
  {
    name: '',
    versions: [
      { version: 'v1', resources: [res('pods', 'Pod', { shortNames: ['po'], categories: ['all'] })] },
    ],
  },
  {
    name: 'autoscaling',
    versions: [
      {
        version: 'v2',
        resources: [res('horizontalpodautoscalers', 'HorizontalPodAutoscaler', { shortNames: ['hpa'] })],
      },
      {
        version: 'v1',
        resources: [res('horizontalpodautoscalers', 'HorizontalPodAutoscaler', { shortNames: ['hpa'] })],
      },
    ],
  },
  // A CRD whose short name is another group's plural: the plural wins (shortcut.go looks for one first).
  {
    name: 'tricks.io',
    versions: [{ version: 'v1', resources: [res('tricks', 'Trick', { shortNames: ['pods'] })] }],
  },
  // A kind whose lowercase is not its singular.
  {
    name: 'odd.io',
    versions: [
      {
        version: 'v1alpha1',
        resources: [res('oddities', 'OddThing', { singular: 'oddity', categories: ['all'] })],
      },
    ],
  },
  // Two resources of one group version that one name matches: kubectl cannot choose either.
  {
    name: 'clash.io',
    versions: [
      { version: 'v1', resources: [res('boxes', 'Box'), res('crates', 'Crate', { singular: 'boxes' })] },
    ],
  },
];
const index = indexGroups(groups);
const name = (arg: string) => {
  const m = matchName(index, arg);
  return 'type' in m ? `${m.type.plural}.${m.type.version}.${m.type.group}` : `missing ${m.missing}`;
};

describe('kubectl name rules', () => {
  it('a plural wins over a short name, a short name expands in its group, versions go to the preferred one', () => {
    expect(name('pods')).toBe('pods.v1.');
    expect(name('hpa')).toBe('horizontalpodautoscalers.v2.autoscaling');
    expect(name('horizontalpodautoscalers.v1.autoscaling')).toBe('horizontalpodautoscalers.v1.autoscaling');
    // shortcut.go's expansion keeps group and resource only: a short name's version is dropped.
    expect(name('hpa.v1.autoscaling')).toBe('horizontalpodautoscalers.v2.autoscaling');
    // shortcut.go's group prefixing: "autoscal" names autoscaling.
    expect(name('hpa.autoscal')).toBe('horizontalpodautoscalers.v2.autoscaling');
    expect(name('pods.tricks.io')).toBe('tricks.v1.tricks.io');
  });

  it('falls back to the kind, exact or lowercase, in its group', () => {
    expect(name('OddThing.odd.io')).toBe('oddities.v1alpha1.odd.io');
    expect(name('oddthing.v1alpha1.odd.io')).toBe('oddities.v1alpha1.odd.io');
    expect(name('oddity')).toBe('oddities.v1alpha1.odd.io');
    expect(name('OddThing')).toBe('missing OddThing');
  });

  it('reports what kubectl quotes for a miss; an ambiguous resource name is a miss, as kubectl ignores KindFor errors', () => {
    expect(name('nothing.at.all')).toBe('missing nothing');
    expect(name('boxes')).toBe('missing boxes');
    expect(name('Box.clash.io')).toBe('boxes.v1.clash.io');
  });

  it('throws for two resources of one kind that priority cannot order', () => {
    const twice = indexGroups([
      { name: 'dup.io', versions: [{ version: 'v1', resources: [res('as', 'Same'), res('bs', 'Same')] }] },
    ]);
    expect(() => matchName(twice, 'Same.dup.io')).toThrow(AmbiguousResourceError);
  });

  it('maps apiVersion and kind exactly, and expands a category at preferred versions', () => {
    expect(matchKind(index, 'autoscaling/v1', 'HorizontalPodAutoscaler')?.version).toBe('v1');
    expect(matchKind(index, 'autoscaling/v3', 'HorizontalPodAutoscaler')).toBeUndefined();
    expect(matchKind(index, 'v1', 'Pod')?.plural).toBe('pods');
    expect(matchCategory(index, 'all').map((t) => t.plural)).toEqual(['pods', 'oddities']);
  });
});
