import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatSidebar } from '../../../components/chat-history/chat-sidebar.tsx';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { chatPlansAddons } from '../../../components/layout/chat-plans.tsx';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * vip_url on this site (PUBLIC_URL/pricing, the default): the web page goes to its own /pricing; the
 * extension opens it in a new tab. (Settings are cached per server for 5 minutes: a file of its own.)
 */
const VIP_URL = `${window.location.origin}/pricing`;

const server = serveTheseTests(
  fakeApi({
    '/api/System/GetSettingListAll': answer([{ settingKey: 'vip_url', settingValue: VIP_URL }]),
    '/api/Chat/GetModelListAll': answer([testModel('basic', 0), testModel('pro', 2, { locked: true, name: 'Pro Model' })]),
    '/api/Chat/GetChatSessionListBySelf': answer({ list: [], total: 0 }),
  }),
);
afterEach(() => {
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

const advanced = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-11-25T12:00:00Z' } };

describe('the way to the plans, with vip_url on this site', () => {
  it('"See plans" of the upgrade modal goes to /pricing in the web app', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} addons={chatPlansAddons} />, { apiBase: server.url, user: testUser });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('basic'));
    await userEvent.click(picker);
    await userEvent.click(await within(await screen.findByRole('menu', { hidden: true })).findByText('Pro Model'));
    await userEvent.click(within(await screen.findByTestId('upgrade-modal')).getByRole('button', { name: 'See plans' }));
    await waitFor(() => expect(window.location.pathname).toBe('/pricing'));
    expect(open).not.toHaveBeenCalled();
  });

  it('the plan card goes to /pricing on the web page, and opens vip_url in a new tab from the extension', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const onNavigate = vi.fn();
    const web = await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: advanced });
    await userEvent.click(screen.getByTestId('vip-card'));
    await waitFor(() => expect(onNavigate).toHaveBeenCalledWith('/pricing'));
    web.unmount();

    await renderInApp(<ChatSidebar onNavigate={onNavigate} />, { apiBase: server.url, user: testUser, platform: { isExtension: true, scene: 'extension', isH5: true } });
    await userEvent.click(screen.getByRole('button', { name: 'Go premium' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(VIP_URL, '_blank', 'noopener,noreferrer'));
    expect(onNavigate).toHaveBeenCalledTimes(1);
  });
});
