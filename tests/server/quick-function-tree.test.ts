import { describe, expect, it } from 'vitest';
import { buildQuickFunctionTree, flattenTree } from '../../server/services/quick-functions/quick-function-tree.ts';

const item = (quickFunctionId: string, parentId: string | null = null) => ({ quickFunctionId, parentId });
const shape = (nodes: ReturnType<typeof buildQuickFunctionTree<ReturnType<typeof item>>>): unknown =>
  nodes.map((n) => (n.children.length ? { [n.quickFunctionId]: shape(n.children) } : n.quickFunctionId));

describe('the quick-function tree', () => {
  it('makes items without a parent roots and puts children under their parent, in list order', () => {
    const tree = buildQuickFunctionTree([item('a'), item('t'), item('t-en', 't'), item('t-zh', 't'), item('b', ''), item('t-ja', 't')]);
    expect(shape(tree)).toEqual(['a', { t: ['t-en', 't-zh', 't-ja'] }, 'b']);
  });

  it('drops items whose parent is missing, with everything under them', () => {
    const tree = buildQuickFunctionTree([item('a'), item('orphan', 'gone'), item('under-orphan', 'orphan'), item('a1', 'a')]);
    expect(shape(tree)).toEqual([{ a: ['a1'] }]);
  });

  it('drops items on a cycle, and items under the cycle', () => {
    const tree = buildQuickFunctionTree([item('x', 'y'), item('y', 'x'), item('z', 'x'), item('self', 'self'), item('root')]);
    expect(shape(tree)).toEqual(['root']);
  });

  it('keeps the first of a repeated id and drops what is deeper than maxDepth', () => {
    const tree = buildQuickFunctionTree([item('a'), item('a', 'zzz'), item('b', 'a'), item('c', 'b'), item('d', 'c')], 3);
    expect(shape(tree)).toEqual([{ a: [{ b: ['c'] }] }]);
    expect(flattenTree(tree).map((n) => n.quickFunctionId)).toEqual(['a', 'b', 'c']);
  });

  it('gives every node a children array and keeps its fields', () => {
    const [root] = buildQuickFunctionTree([{ quickFunctionId: 'a', parentId: null, name: 'A' }]);
    expect(root).toEqual({ quickFunctionId: 'a', parentId: null, name: 'A', children: [] });
  });
});
