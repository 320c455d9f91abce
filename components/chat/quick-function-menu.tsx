import { Paper, Text } from '@mantine/core';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ComposerMenuProps } from './composer.tsx';
import { QuickFunctionIcon, type ChatTool } from './quick-function-icon.tsx';

export interface QuickFunctionMenuProps extends ComposerMenuProps {
  tools: readonly ChatTool[];
  onPick: (tool: ChatTool) => void;
}

/** The tools whose name, group or description contains `query` (any case); all of them for none. */
export function matchTools(tools: readonly ChatTool[], query: string): ChatTool[] {
  const q = query.trim().toLocaleLowerCase();
  if (!q) return [...tools];
  const hit = (s: string | null) => !!s && s.toLocaleLowerCase().includes(q);
  // Names first: "/tr" puts Translate above a tool that only mentions translating.
  return [...tools.filter((t) => hit(t.name) || hit(t.group)), ...tools.filter((t) => !hit(t.name) && !hit(t.group) && hit(t.description))];
}

/**
 * The "/" menu above the composer: the tools matching what follows the "/". Arrow keys move, Enter
 * or Tab picks, Esc closes it (until the "/" is gone); a click picks too, keeping the text box's focus.
 * Picking clears the "/…" text. Mounted only while the text starts with "/" (SlashMenuSlot).
 */
export function QuickFunctionMenu({ text, setText, keys, tools, onPick }: QuickFunctionMenuProps) {
  const { t } = useTranslation();
  const query = text.slice(1);
  const matches = useMemo(() => matchTools(tools, query), [tools, query]);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const open = !dismissed;
  const current = Math.min(active, Math.max(0, matches.length - 1));

  useEffect(() => setActive(0), [query]);
  useEffect(() => {
    list.current?.querySelector(`[data-index="${current}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current]);

  const pick = (tool: ChatTool) => {
    setText('');
    onPick(tool);
  };

  // The composer asks the menu first about every key.
  useLayoutEffect(() => {
    keys.current = (event: KeyboardEvent<HTMLTextAreaElement>) => {
      if (!open || event.nativeEvent.isComposing) return false;
      if (event.key === 'Escape') {
        setDismissed(true);
        return true;
      }
      if (matches.length === 0) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current + step + matches.length) % matches.length);
        return true;
      }
      if ((event.key === 'Enter' && !event.shiftKey) || event.key === 'Tab') {
        pick(matches[current]);
        return true;
      }
      return false;
    };
  });
  useEffect(() => () => void (keys.current = null), [keys]);

  if (!open) return null;
  return (
    <Paper className="qf-menu" shadow="md" withBorder radius={6} ref={list} data-testid="qf-menu">
      <Text size="xs" c="dimmed" px={8} py={4}>
        {t('chat.quickFunctions.menuHint')}
      </Text>
      {matches.length === 0 ? (
        <Text size="sm" c="dimmed" px={8} py={6} role="status">
          {t('chat.quickFunctions.noMatch', { query: query.trim() })}
        </Text>
      ) : (
        <div role="listbox" id={id} aria-label={t('chat.quickFunctions.menuLabel')} aria-activedescendant={`${id}-${current}`}>
          {matches.map((tool, index) => (
            <div
              key={tool.quickFunctionId}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === current}
              data-index={index}
              className="qf-menu-item"
              // The text box keeps the focus (and the keyboard) while the mouse picks.
              onMouseDown={(event) => event.preventDefault()}
              onMouseEnter={() => setActive(index)}
              onClick={() => pick(tool)}
            >
              <QuickFunctionIcon icon={tool.icon} size={16} />
              <div className="qf-menu-text">
                <Text size="sm" fw={500} truncate>
                  {tool.group ? `${tool.group} › ${tool.name}` : tool.name}
                </Text>
                {tool.description && (
                  <Text size="xs" c="dimmed" truncate>
                    {tool.description}
                  </Text>
                )}
              </div>
            </div>
          ))}
        </div>
      )}
    </Paper>
  );
}
