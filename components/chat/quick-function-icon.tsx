import './quick-functions.css';
import type { QuickFunctionItem } from '../../shared/contracts/quick-function.ts';

// The tool type and icon that both the chat's quick functions and their lazily loaded menu use, in a
// file of their own so that the menu does not import the module that loads it.

/** A quick function the chat offers: a tool (not a group) with the name of the group it sits in. */
export type ChatTool = QuickFunctionItem & { group: string | null };

/** A tool's icon: its emoji, or a generic mark for none (or an icon name this client does not know). */
export function QuickFunctionIcon({ icon, size = 14 }: { icon: string; size?: number }) {
  const emoji = icon && !/^[\x20-\x7e]+$/.test(icon) ? icon : '⚡';
  return (
    <span className="qf-icon" aria-hidden="true" style={{ fontSize: size }}>
      {emoji}
    </span>
  );
}
