import './quick-functions.css';
import { ActionIcon, Anchor, Button, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { lazy, memo, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { quickFunctionTreeQuery } from '../../shared/api/quick-functions.ts';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import type { MessageQuickFunction, MessageSelection, QuickFunctionNode } from '../../shared/contracts/quick-function.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { IconFileText, IconQuote, IconX } from '../ui/icons.tsx';
import type { ComposerMenuProps } from './composer.tsx';
import { QuickFunctionIcon, type ChatTool } from './quick-function-icon.tsx';
import strings from '../../locales/features/chat-quick-functions.en.json';
import quoteStrings from '../../locales/features/chat-quote.en.json';
import { toolLabel } from '../../shared/utils/tool-label.ts';

addEnglishStrings(strings);
// A sent question may carry an earlier answer (chat/quoted-answer.tsx): its words, where the bubble shows it.
addEnglishStrings(quoteStrings);

/** How many tools an empty chat offers as starters. */
export const MAX_STARTERS = 8;

/**
 * The tools the chat can use, pinned first: those that work on typed input, and those that work on
 * the page when there is a tab to read (the side panel). Groups are opened: their tools carry the
 * group's name. Hidden (offline) items are not in the tree the server sends.
 */
export function chatTools(tree: readonly QuickFunctionNode[], canReadPage: boolean): ChatTool[] {
  const out: ChatTool[] = [];
  const visit = (nodes: readonly QuickFunctionNode[], group: string | null) => {
    for (const { children, ...item } of nodes) {
      if (!item.online) continue;
      if (item.isGroup) visit(children, item.name);
      else if (item.appliesTo.includes('input') || (canReadPage && item.appliesTo.includes('page'))) out.push({ ...item, group });
    }
  };
  visit(tree, null);
  return [...out.filter((tool) => tool.pinned), ...out.filter((tool) => !tool.pinned)];
}

/** A tool's name as the chat shows and sends it: a group's tool keeps the group's verb (toolLabel), as the server names it. */
export function chatToolLabel(tool: Pick<ChatTool, 'group' | 'name'>): string {
  return tool.group ? toolLabel(tool.group, tool.name) : tool.name;
}

/** Whether the text asks for the "/" menu: a "/" at the start, then a short filter on one line. */
export function isSlashCommand(text: string): boolean {
  return /^\/[^\n]{0,40}$/.test(text);
}

/** The quick functions of the chat and the one chosen for the next message. */
export function useChatQuickFunctions(canReadPage: boolean) {
  const loggedIn = useAtomValue(isLoggedInAtom);
  const { i18n } = useTranslation();
  const query = useQuery(quickFunctionTreeQuery(loggedIn, i18n.language === 'zh' ? 'zh' : 'en'));
  const tools = useMemo(() => chatTools(query.data ?? [], canReadPage), [query.data, canReadPage]);
  const [chosen, setChosen] = useState<ChatTool | null>(null);
  return { tools, chosen, choose: setChosen };
}

/** An empty chat's row of tools: picking one chooses it for the message (and attaches the page it works on). */
export const QuickFunctionStarters = memo(function QuickFunctionStarters({ tools, onPick }: { tools: readonly ChatTool[]; onPick: (tool: ChatTool) => void }) {
  const { t } = useTranslation();
  if (tools.length === 0) return null;
  return (
    <div className="qf-starters">
      <Text size="xs" c="dimmed" mb={6}>
        {t('chat.quickFunctions.startersTitle')}
      </Text>
      <div className="qf-starter-list" role="group" aria-label={t('chat.quickFunctions.startersLabel')}>
        {tools.slice(0, MAX_STARTERS).map((tool) => (
          <Button
            key={tool.quickFunctionId}
            variant="default"
            size="compact-sm"
            radius="xl"
            className="qf-starter"
            data-testid="qf-starter"
            leftSection={<QuickFunctionIcon icon={tool.icon} />}
            title={tool.description || undefined}
            aria-description={tool.appliesTo.includes('page') && !tool.appliesTo.includes('input') ? t('chat.quickFunctions.pageHint') : undefined}
            onClick={() => onPick(tool)}
          >
            {/* A group's tool keeps the group's verb: "Translate to French". */}
            {chatToolLabel(tool)}
          </Button>
        ))}
      </div>
    </div>
  );
});

/** The composer's chip of the chosen tool, with a button that removes it. */
export function ChosenToolChip({ tool, onRemove }: { tool: ChatTool; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="qf-chosen" role="status" aria-label={t('chat.quickFunctions.chosenLabel', { name: chatToolLabel(tool) })} data-testid="qf-chosen">
      <QuickFunctionIcon icon={tool.icon} />
      <Text size="xs" fw={600} truncate>
        {chatToolLabel(tool)}
      </Text>
      <ActionIcon variant="subtle" color="gray" size="xs" aria-label={t('chat.quickFunctions.remove', { name: chatToolLabel(tool) })} onClick={onRemove}>
        <IconX size={12} />
      </ActionIcon>
    </div>
  );
}

/** The "/" menu is a chunk of its own, fetched when the user first types "/". */
const QuickFunctionMenu = lazy(() => import('./quick-function-menu.tsx').then((module) => ({ default: module.QuickFunctionMenu })));

/** The composer's command menu: nothing until the text starts with "/" and there are tools. */
export function SlashMenuSlot(props: ComposerMenuProps & { tools: readonly ChatTool[]; onPick: (tool: ChatTool) => void }) {
  if (props.tools.length === 0 || !isSlashCommand(props.text)) return null;
  return (
    <Suspense fallback={null}>
      <QuickFunctionMenu {...props} />
    </Suspense>
  );
}

/** In the user's bubble: the tool the message was sent with. */
export function SentQuickFunction({ tool }: { tool: MessageQuickFunction }) {
  const { t } = useTranslation();
  return (
    <div className="qf-sent" aria-label={t('chat.quickFunctions.usedTool', { name: tool.name })} data-testid="qf-sent">
      <QuickFunctionIcon icon={tool.icon} size={13} />
      <span>{tool.name}</span>
    </div>
  );
}

/** A page address fit for a link: http(s) only (the page named it; anything else is shown as text). */
function safeHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** In the user's bubble: the page text the message was sent with, folded to a few lines. */
export function SentSelection({ selection }: { selection: MessageSelection }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const long = selection.text.length > 160;
  return (
    <div className="qf-selection" role="group" aria-label={selection.chatMessageId ? t('chat.quote.sent') : t('chat.quickFunctions.selection')} data-testid="qf-selection">
      <Text size="xs" className="qf-selection-text" data-open={open || undefined}>
        {selection.text}
      </Text>
      <div className="qf-selection-foot">
        {selection.chatMessageId ? (
          <Text size="xs" c="dimmed" className="qf-selection-source" data-testid="qf-selection-answer">
            <IconQuote size={12} /> {t('chat.quote.sent')}
          </Text>
        ) : selection.title || selection.url ? (
          <Anchor size="xs" href={safeHref(selection.url)} target="_blank" rel="noreferrer" className="qf-selection-source">
            <IconFileText size={12} /> {t('chat.quickFunctions.selectionFrom', { title: selection.title || selection.url })}
          </Anchor>
        ) : (
          <span />
        )}
        {long && (
          <UnstyledButton className="qf-selection-toggle" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? t('chat.quickFunctions.showLess') : t('chat.quickFunctions.showMore')}
          </UnstyledButton>
        )}
      </div>
    </div>
  );
}
