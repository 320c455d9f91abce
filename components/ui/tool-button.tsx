import { ActionIcon, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ToolButtonProps {
  /** The accessible name. */
  label: string;
  /** Why the button cannot be used now; null when it can. Shown as its tooltip and description. */
  unavailable: string | null;
  /** The tooltip and description while it can be used (the label alone when absent). */
  hint?: string;
  pressed?: boolean;
  loading?: boolean;
  onClick: () => void;
  children: ReactNode;
}

/**
 * A 30-px icon button of the composer's toolbar whose tooltip says what it does, or why it is
 * disabled. A disabled button gets no pointer events, so the tooltip sits on a wrapper.
 */
export function ToolButton({ label, unavailable, hint, pressed, loading, onClick, children }: ToolButtonProps) {
  return (
    <Tooltip label={unavailable ?? hint ?? label} withArrow multiline maw={280}>
      <span>
        <ActionIcon
          variant={pressed && unavailable === null ? 'filled' : 'default'}
          size={30}
          aria-label={label}
          // What the tooltip says reaches a screen reader and the keyboard too.
          aria-description={unavailable ?? hint}
          aria-pressed={pressed === undefined ? undefined : pressed && unavailable === null}
          disabled={unavailable !== null}
          loading={loading}
          onClick={onClick}
        >
          {children}
        </ActionIcon>
      </span>
    </Tooltip>
  );
}
