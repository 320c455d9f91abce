import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { chatPlansAddons } from '../../../components/layout/chat-plans.tsx';
import { PlanSettingsSection } from '../../../components/plans/plan-settings-section.tsx';
import { UserPlanPage } from '../../../components/plans/user-plan-page.tsx';
import { chatModelAtom } from '../../../shared/atoms/chat.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

const MODELS = [testModel('basic', 0), testModel('standard', 1), testModel('pro', 2, { locked: true, name: 'Pro Model' })];
const VIP_URL = 'https://plans.example.com/pricing';

const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([{ settingKey: 'vip_url', settingValue: VIP_URL }]),
    '/api/Chat/GetModelListAll': answer(MODELS),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [], total: 0 }),
  }),
);
afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

const advanced = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-11-25T12:00:00Z' } };

describe('the upgrade modal on a locked model', () => {
  it('names the plan that unlocks the model, keeps the model in use, and "See plans" opens vip_url', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { store } = await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} addons={chatPlansAddons} />, { apiBase: server.url, user: testUser });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('standard'));
    await userEvent.click(picker);
    const locked = (await within(await screen.findByRole('menu', { hidden: true })).findByText('Pro Model')).closest('[role="menuitem"]')!;
    expect(locked).toHaveAttribute('data-locked', 'true');
    expect(locked).not.toHaveAttribute('data-disabled');
    await userEvent.click(locked);

    const modal = await screen.findByTestId('upgrade-modal');
    expect(modal).toHaveTextContent('Upgrade your plan');
    expect(modal).toHaveTextContent('Pro Model needs the Advanced plan. Upgrade to use it.');
    // The modal is the spec's 332 px one.
    expect(modal.closest('.mantine-Modal-root')?.getAttribute('style')).toContain('--modal-size: calc(20.75rem');
    expect(picker).toHaveTextContent('standard');
    expect(store.get(chatModelAtom)).not.toBe('pro');

    await userEvent.click(within(modal).getByRole('button', { name: 'See plans' }));
    // vip_url is another site here: the web page opens it in a new tab.
    expect(open).toHaveBeenCalledWith(VIP_URL, '_blank', 'noopener,noreferrer');
    await waitFor(() => expect(screen.queryByTestId('upgrade-modal')).toBeNull());
  });

  it('opens vip_url in a new tab from the extension', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} addons={chatPlansAddons} />, {
      apiBase: server.url,
      user: testUser,
      platform: { isExtension: true, scene: 'extension' },
    });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('standard'));
    await userEvent.click(picker);
    await userEvent.click(await within(await screen.findByRole('menu', { hidden: true })).findByText('Pro Model'));
    await userEvent.click(within(await screen.findByTestId('upgrade-modal')).getByRole('button', { name: 'See plans' }));
    expect(open).toHaveBeenCalledWith(VIP_URL, '_blank', 'noopener,noreferrer');
  });

  it('keeps locked models unpickable without the plans addon', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('standard'));
    await userEvent.click(picker);
    const locked = (await within(await screen.findByRole('menu', { hidden: true })).findByText('Pro Model')).closest('[role="menuitem"]')!;
    expect(locked).toHaveAttribute('data-disabled', 'true');
  });
});

describe('the sidebar and /user-vip lead to the plans', () => {
  it('go premium opens an outside vip_url in a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderInApp(<ChatSidebar onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    // Until the settings have arrived the button leads to /pricing; once they have, to vip_url.
    const premium = screen.getByRole('button', { name: 'Go premium' });
    await waitFor(async () => {
      await userEvent.click(premium);
      expect(open).toHaveBeenCalledWith(VIP_URL, '_blank', 'noopener,noreferrer');
    });
  });

  it('/user-vip shows the plan card and the ways to /pricing and /subscription, and asks a visitor to sign in', async () => {
    const onNavigate = vi.fn();
    const { unmount } = await renderInApp(<UserPlanPage onBack={vi.fn()} onNavigate={onNavigate} />, { apiBase: server.url, user: advanced });
    const summary = screen.getByTestId('plan-summary');
    expect(summary).toHaveTextContent('Advanced');
    expect(summary).toHaveTextContent('Expires 2027-11-25');
    expect(summary.dataset.tier).toBe('2');
    await userEvent.click(screen.getByRole('button', { name: 'See all plans' }));
    await userEvent.click(screen.getByRole('button', { name: 'Subscription and orders' }));
    expect(onNavigate.mock.calls).toEqual([['/pricing'], ['/subscription']]);
    unmount();

    await renderInApp(<UserPlanPage onBack={vi.fn()} onNavigate={onNavigate} />, { apiBase: server.url, user: null });
    expect(screen.getByText('Sign in to see your plan.')).toBeInTheDocument();
    expect(screen.queryByTestId('plan-summary')).toBeNull();
  });

  it('settings show the plan with the ways to /subscription and /pricing', async () => {
    const onNavigate = vi.fn();
    await renderInApp(<PlanSettingsSection onNavigate={onNavigate} />, { apiBase: server.url, user: advanced });
    expect(screen.getByTestId('plan-settings')).toHaveTextContent('Plan and billingAdvanced · Expires 2027-11-25');
    await userEvent.click(screen.getByRole('button', { name: 'Subscription' }));
    await userEvent.click(screen.getByRole('button', { name: 'See all plans' }));
    expect(onNavigate.mock.calls).toEqual([['/subscription'], ['/pricing']]);
  });
});
