import { useLocation } from 'wouter';
import type { ChatAddons, LockedModelPrompt } from '../chat/chat-addons.ts';
import { usePlansLink } from '../app-shell/plans-link.ts';
import type { UpgradeModalProps } from '../plans/upgrade-modal.tsx';
import { deferred } from '../ui/deferred.tsx';

/**
 * The plans feature inside the chat: picking a model above the user's plan opens the upgrade modal
 * naming the plan that unlocks it, whose "See plans" opens the plans (/pricing on the web, vip_url in
 * a new tab from the extension). A chunk fetched after the first screen.
 */
const UpgradeModal = deferred<UpgradeModalProps>(() => import('../plans/upgrade-modal.tsx').then((module) => module.UpgradeModal)).Component;

function LockedModelUpgrade({ opened, model, onClose }: LockedModelPrompt) {
  const [, navigate] = useLocation();
  const openPlans = usePlansLink();
  return <UpgradeModal opened={opened} model={model} onClose={onClose} onSeePlans={() => openPlans(navigate)} />;
}

export const chatPlansAddons: ChatAddons = {
  upgradePrompt: (prompt) => <LockedModelUpgrade {...prompt} />,
};
