import type { QuickFunctionNode, UserQuickFunction } from '../../../shared/contracts/quick-function.ts';

/** Where a fake item shows unless a test says otherwise: no model of its own, unpinned, online, first, a tool. */
const UNPLACED = { aiModelId: null, pinned: false, online: true, sort: 0, isGroup: false };

/** A node of GetQuickFunctionListAll2 as the server answers it; `extra` overrides any field. */
export function node(quickFunctionId: string, name: string, extra: Partial<QuickFunctionNode> = {}): QuickFunctionNode {
  return {
    quickFunctionId,
    userQuickFunctionId: null,
    parentId: null,
    name,
    icon: '✨',
    description: '',
    template: `Do ${name} with {input}`,
    category: 'style',
    appliesTo: ['input'],
    ...UNPLACED,
    children: [],
    ...extra,
  };
}

/** One of the user's own as GetUserQuickFunctionList answers it. */
export function own(id: string, name: string, extra: Partial<UserQuickFunction> = {}): UserQuickFunction {
  return {
    quickFunctionId: id,
    userQuickFunctionId: id,
    parentId: null,
    name,
    icon: '📝',
    description: '',
    template: `${name}: {input}`,
    category: 'scoped',
    appliesTo: ['input'],
    ...UNPLACED,
    updateTime: '2026-11-25T10:00:00.000Z',
    tagIds: [],
    ...extra,
  };
}

/** A tree with a pinned page tool, two input tools, a selection-only tool and a group of translations. */
export const TREE: QuickFunctionNode[] = [
  node('qf-summarize', 'Summarize page', { icon: '📄', appliesTo: ['page'], pinned: true, description: 'The page in five bullets' }),
  node('qf-explain', 'Explain', { icon: '💡', appliesTo: ['selection', 'input'], description: 'In plain words' }),
  node('qf-grammar', 'Fix grammar', { icon: '✍️', appliesTo: ['selection', 'input'], aiModelId: 'smart' }),
  node('qf-reply', 'Reply to this', { appliesTo: ['selection'] }),
  node('qf-translate', 'Translate to…', {
    isGroup: true,
    template: '',
    children: [node('qf-translate-fr', 'French', { parentId: 'qf-translate', icon: '🇫🇷', description: 'Translate to French' })],
  }),
];
