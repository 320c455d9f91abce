import type { ChatAddons } from '../chat/chat-addons.ts';
import type { CheckinCardProps } from '../points/checkin-card.tsx';
import type { MessageCostProps } from '../points/message-cost.tsx';
import type { NotEnoughPointsProps } from '../points/not-enough-points.tsx';
import { Codes } from '../../shared/contracts/envelope.ts';
import { deferred } from '../ui/deferred.tsx';

/**
 * The points feature inside the chat: today's check-in under the welcome, the cost of the next
 * message beside the send button, the Not-Enough-Points notice in place of a 10470 error. Each is a
 * chunk fetched after the first screen (bench/README.md#bundle-what-a-user-downloads).
 */
const CheckinCard = deferred<CheckinCardProps>(() => import('../points/checkin-card.tsx').then((module) => module.CheckinCard)).Component;
const MessageCost = deferred<MessageCostProps>(() => import('../points/message-cost.tsx').then((module) => module.MessageCost)).Component;
const NotEnoughPoints = deferred<NotEnoughPointsProps>(() =>
  import('../points/not-enough-points.tsx').then((module) => module.NotEnoughPoints),
).Component;

export const chatPointsAddons: ChatAddons = {
  welcome: <CheckinCard home />,
  sendCost: (model, models) => <MessageCost model={model} models={models} />,
  failureNotice: (code, message) => (code === Codes.NotEnoughPoints ? <NotEnoughPoints message={message} /> : null),
};
