import { describe, expect, it } from 'vitest';
import { groupModelsByLevel, pickDefaultModel } from '../../../shared/utils/default-model.ts';

const m = (id: string, minVipLevel: number) => ({ id, minVipLevel, minVipLevelName: `L${minVipLevel}` });

describe('pickDefaultModel', () => {
  it('takes the first model of the lowest non-zero level', () => {
    const models = [m('free', 0), m('adv1', 2), m('std1', 1), m('std2', 1), m('sup', 3)];
    expect(pickDefaultModel(models)?.id).toBe('std1');
  });

  it('falls back to the first model when every level is zero', () => {
    expect(pickDefaultModel([m('a', 0), m('b', 0)])?.id).toBe('a');
  });

  it('returns undefined for an empty list', () => {
    expect(pickDefaultModel([])).toBeUndefined();
  });
});

describe('groupModelsByLevel', () => {
  it('groups non-zero levels ascending, keeping the input order inside a group', () => {
    const models = [m('s1', 3), m('f1', 0), m('a1', 2), m('st1', 1), m('a2', 2), m('f2', 0), m('st2', 1)];
    const { ungrouped, groups } = groupModelsByLevel(models);
    expect(ungrouped.map((x) => x.id)).toEqual(['f1', 'f2']);
    expect(groups.map((g) => [g.level, g.levelName, g.models.map((x) => x.id)])).toEqual([
      [1, 'L1', ['st1', 'st2']],
      [2, 'L2', ['a1', 'a2']],
      [3, 'L3', ['s1']],
    ]);
  });

  it('has no groups when all models are free', () => {
    expect(groupModelsByLevel([m('a', 0)]).groups).toEqual([]);
  });
});
