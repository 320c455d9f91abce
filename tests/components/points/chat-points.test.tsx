import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { chatPointsAddons } from '../../../components/layout/chat-points.tsx';
import { MessageCost, messageCost } from '../../../components/points/message-cost.tsx';
import { stopBalancePoll } from '../../../shared/api/points-balance.ts';
import { chatModelAtom } from '../../../shared/atoms/chat.ts';
import { answer, answerChat, fakeApi, serveTheseTests, type Route } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const MODELS = [
  testModel('auto', 0, { pointsCost: 1 }),
  testModel('basic', 1, { pointsCost: 2 }),
  testModel('fast', 1, { pointsCost: 5 }),
  testModel('pro', 2, { pointsCost: 20, locked: true }),
];
const NOT_ENOUGH = 'Not Enough Points. Check in daily for free points.';
const VIP_URL = 'https://tandem.example/pricing';

/** The account's points: spent goes up by the model's cost when an answer is booked. */
let points: { used: number; signedIn: boolean };
let addMessage: Route;

const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([{ settingKey: 'vip_url', settingValue: VIP_URL }]),
    '/api/Chat/GetModelListAll': answer(MODELS),
    '/api/Chat/AddMessage': (req, res, url) => addMessage(req, res, url),
    '/api/User/GetUserIntegralByLogin': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: [{ integralType: 1, integralValue: 100 - points.used, useIntegral: points.used }] }),
    '/api/User/IsUserSignin': (_req, res) =>
      sendEnvelope(res, { Code: 10000, Data: { signedIn: points.signedIn, streak: 0, points: 10, today: '2026-11-25' } }),
    '/api/User/UserSignin': (_req, res) => {
      points.signedIn = true;
      sendEnvelope(res, { Code: 10000, Data: { signedIn: true, streak: 1, points: 10, today: '2026-11-25' } });
    },
  }),
);
beforeEach(() => {
  points = { used: 0, signedIn: false };
  addMessage = answerChat('Hello!');
});
afterEach(() => {
  stopBalancePoll();
  vi.restoreAllMocks();
});

const requests = (path: string) => server.requests.filter((r) => r.url.startsWith(path));

describe('messageCost', () => {
  it("is the model's cost, and for auto the range over the models the plan reaches", () => {
    expect(messageCost(MODELS[1], MODELS)).toEqual({ min: 2, max: 2, byTokens: false });
    expect(messageCost(MODELS[0], MODELS)).toEqual({ min: 2, max: 5, byTokens: false });
    expect(messageCost(MODELS[0], [MODELS[0]])).toEqual({ min: 1, max: 1, byTokens: false });
    expect(messageCost(undefined, MODELS)).toBeNull();
    // A token-priced model auto may pick makes the top of the range a floor.
    const metered = testModel('metered', 1, { pointsCost: 4, tokenPrice: { inputPer1k: 1, outputPer1k: 2 } });
    expect(messageCost(MODELS[0], [...MODELS, metered])).toEqual({ min: 2, max: 5, byTokens: true });
  });
});

describe('MessageCost', () => {
  it('shows one cost, small, as a coin and the number, with the tooltip "Each message costs N points"', async () => {
    await renderInApp(<MessageCost model={MODELS[2]} models={MODELS} />, { apiBase: server.url, user: testUser });
    const label = screen.getByTestId('message-cost');
    expect(label).toHaveTextContent(/^5$/);
    // Hovered once the page has settled (the deferred toasts' container mounted): a tooltip opened
    // while the providers still render again closes at once.
    await waitFor(() => expect(document.querySelector('.mantine-Notifications-root')).not.toBeNull());
    await userEvent.hover(label);
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Each message costs 5 points');
    // Read out without hovering too.
    expect(label).toHaveAccessibleName('Each message costs 5 points');
  });

  it('shows a token-priced model\'s hold with a "+", and its prices per 1,000 tokens in words', async () => {
    const priced = testModel('long', 1, { pointsCost: 3, tokenPrice: { inputPer1k: 0.5, outputPer1k: 2 } });
    await renderInApp(<MessageCost model={priced} models={[...MODELS, priced]} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('message-cost')).toHaveTextContent(/^3\+$/);
    expect(screen.getByTestId('message-cost')).toHaveAccessibleName(
      'Holds 3 points when sent; the answer is then priced by its length: 0.5 per 1,000 input tokens and 2 per 1,000 output tokens, and the difference is taken or given back',
    );
  });

  it("marks auto's range with a '+' when a model it may pick is priced by tokens", async () => {
    const metered = testModel('metered', 1, { pointsCost: 4, tokenPrice: { inputPer1k: 1, outputPer1k: 2 } });
    await renderInApp(<MessageCost model={MODELS[0]} models={[...MODELS, metered]} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('message-cost')).toHaveTextContent(/^2–5\+$/);
    expect(screen.getByTestId('message-cost')).toHaveAccessibleName(
      'Each message costs 2 to 5 points, depending on the model Auto picks; a model priced by tokens holds that much, and a long answer costs more',
    );
  });

  it("says auto's one cost once when every pick costs the same and one is priced by tokens", async () => {
    const same = [MODELS[0], testModel('flat', 1, { pointsCost: 3 }), testModel('metered', 1, { pointsCost: 3, tokenPrice: { inputPer1k: 1, outputPer1k: 2 } })];
    await renderInApp(<MessageCost model={MODELS[0]} models={same} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('message-cost')).toHaveTextContent(/^3\+$/);
    expect(screen.getByTestId('message-cost')).toHaveAccessibleName(
      'Each message costs 3 points whichever model Auto picks; a model priced by tokens holds that much, and a long answer costs more',
    );
  });

  it("shows auto's range", async () => {
    await renderInApp(<MessageCost model={MODELS[0]} models={MODELS} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('message-cost')).toHaveTextContent(/^2–5$/);
    expect(screen.getByTestId('message-cost')).toHaveAccessibleName('Each message costs 2 to 5 points, depending on the model Auto picks');
  });

  it('says a free model is free', async () => {
    await renderInApp(<MessageCost model={testModel('gift', 0, { pointsCost: 0 })} models={MODELS} />, { apiBase: server.url, user: testUser });
    expect(screen.getByTestId('message-cost')).toHaveTextContent('Free');
  });
});

describe('the chat with points', () => {
  const renderChat = async (user = testUser) => {
    const result = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} addons={chatPointsAddons} />, {
      apiBase: server.url,
      user,
    });
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('basic'));
    return result;
  };

  it('shows the check-in card on the welcome screen and the cost beside the send button, for auto as a range', async () => {
    const { store } = await renderChat();
    const card = await screen.findByTestId('checkin-card');
    expect(await within(card).findByRole('button', { name: 'Check in +10' })).toBeInTheDocument();
    const cost = await screen.findByTestId('message-cost');
    expect(within(screen.getByTestId('composer')).getByTestId('message-cost')).toBe(cost);
    expect(cost).toHaveTextContent(/^2$/);
    expect(cost).toHaveAccessibleName('Each message costs 2 points');
    await store.set(chatModelAtom, 'auto');
    await waitFor(() => expect(screen.getByTestId('message-cost')).toHaveTextContent(/^2–5$/));
  });

  it('shows neither to a visitor', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} addons={chatPointsAddons} />, { apiBase: server.url, user: null });
    await screen.findByText('Sign in to start chatting.');
    // Once the addons' code is in, they have rendered whatever they render for a visitor.
    await act(async () => {
      await Promise.all([import('../../../components/points/checkin-card.tsx'), import('../../../components/points/message-cost.tsx')]);
    });
    await act(async () => {});
    expect(screen.queryByTestId('checkin-card')).toBeNull();
    expect(screen.queryByTestId('message-cost')).toBeNull();
  });

  it('answers 10470 with the Not-Enough-Points notice: check in, or upgrade at vip_url', async () => {
    addMessage = (_req, res) => sendEnvelope(res, { Code: 10470, Msg: NOT_ENOUGH });
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderChat();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    const notice = await screen.findByTestId('not-enough-points');
    expect(notice).toHaveTextContent(NOT_ENOUGH);
    // Not the bare red error.
    expect(within(screen.getByTestId('chat-turn')).getAllByRole('alert')).toEqual([notice]);

    await userEvent.click(within(notice).getByRole('button', { name: 'Upgrade plan' }));
    expect(open).toHaveBeenCalledWith(VIP_URL, '_blank', 'noopener,noreferrer');

    await userEvent.click(await within(notice).findByRole('button', { name: 'Check in +10' }));
    await waitFor(() => expect(requests('/api/User/UserSignin')).toHaveLength(1));
    // Done: the button goes, the way to a plan stays.
    await waitFor(() => expect(within(notice).queryByRole('button', { name: /Check in/ })).toBeNull());
    expect(within(notice).getByRole('button', { name: 'Upgrade plan' })).toBeInTheDocument();
  });

  it('offers no check-in in the notice once today is done', async () => {
    points.signedIn = true;
    addMessage = (_req, res) => sendEnvelope(res, { Code: 10470, Msg: NOT_ENOUGH });
    await renderChat();
    // Today's status is known (the home card says so) before the message is refused: the notice reads the same.
    expect(await within(await screen.findByTestId('checkin-card')).findByText('Checked in')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    const notice = await screen.findByTestId('not-enough-points');
    await waitFor(() => expect(within(notice).getByRole('button', { name: 'Upgrade plan' })).toBeInTheDocument());
    expect(within(notice).queryByRole('button', { name: /Check in/ })).toBeNull();
  });

  it('keeps the plain error for other failures', async () => {
    addMessage = (_req, res) => sendEnvelope(res, { Code: 10503, Msg: 'This model is busy now. Please try again later' });
    await renderChat();
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    const turn = await screen.findByTestId('chat-turn');
    expect(await within(turn).findByRole('alert')).toHaveTextContent('This model is busy now');
    expect(screen.queryByTestId('not-enough-points')).toBeNull();
  });

  it('reads the balance after an answer until the spent points change', async () => {
    await renderChat();
    // The card has read the balance before the message: 0 spent.
    await waitFor(() => expect(screen.getByTestId('checkin-balance')).toHaveTextContent('Balance 100'));
    const before = requests('/api/User/GetUserIntegralByLogin').length;
    addMessage = answerChat('Hello!');
    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Hi{Enter}');
    await screen.findByText('Hello!');
    // The charge is booked after the answer: the poll reads twice without a change, then sees it.
    await waitFor(() => expect(requests('/api/User/GetUserIntegralByLogin').length).toBeGreaterThanOrEqual(before + 2));
    const atChange = requests('/api/User/GetUserIntegralByLogin').length;
    points.used = 2;
    await waitFor(() => expect(requests('/api/User/GetUserIntegralByLogin').length).toBeGreaterThan(atChange));
    // That the poll then stops, carries the balance to every surface and never runs twice at once is
    // shown with fake timers in balance-poll.test.ts.
  });
});
