import { useAtomValue } from 'jotai';
import type { ChatAddons } from '../chat/chat-addons.ts';
import type { RememberCardProps } from '../personalization/remember-card.tsx';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import type { REMEMBER_TOOL_NAME } from '../../shared/contracts/personalization.ts';
import { deferred } from '../ui/deferred.tsx';

/**
 * The memory inside the chat: an answer whose model proposed a fact to remember shows "Remember
 * this? Save / Dismiss" in place of the tool call's item; a new user's empty chat shows the memory
 * onboarding under the welcome. Each is a chunk fetched after the first screen.
 */
const RememberCard = deferred<RememberCardProps>(() => import('../personalization/remember-card.tsx').then((module) => module.RememberCard)).Component;
const OnboardingGate = deferred<object>(() => import('../personalization/onboarding.tsx').then((module) => module.OnboardingGate)).Component;

/** The tool's name, checked against the contract's; not imported as a value, which would put the contract's schemas into the side panel's entry. */
const REMEMBER_TOOL: typeof REMEMBER_TOOL_NAME = 'remember';

export const chatMemoryAddons: ChatAddons = {
  toolCallCard: (call, answer) =>
    call.toolName === REMEMBER_TOOL ? <RememberCard call={call} chatMessageId={answer.chatMessageId} streaming={answer.streaming} /> : null,
};

/** The onboarding, while the signed-in account's is pending (it asks the server once per page). */
export function MemoryOnboarding() {
  const loggedIn = useAtomValue(isLoggedInAtom);
  return loggedIn ? <OnboardingGate /> : null;
}
