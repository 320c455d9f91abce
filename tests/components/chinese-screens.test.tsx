import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PlanCard } from '../../components/chat-history/plan-card.tsx';
import { ChatView } from '../../components/chat/chat-view.tsx';
import { PricingPage } from '../../components/plans/pricing-page.tsx';
import { SettingsPage } from '../../components/settings/settings-page.tsx';
import { setLanguage } from '../../shared/i18n/i18n.ts';
import { answer, fakeApi, serveTheseTests } from '../helpers/fake-api.ts';
import { testModel } from '../helpers/models.ts';
import { renderInApp, testUser } from '../helpers/render-app.tsx';
import { packageList } from './plans/fake-plans.ts';

/**
 * The main screens in Chinese: no run of Latin words that is not a product or model name. The
 * server's default plan and model-level names (Standard, Advanced, the Auto model's English
 * description) come as they are, and must be shown in the reader's language.
 */
const ALLOWED = new Set(['Tandem', 'English', 'Mini', 'Pro', 'Ultra', 'US']);
const MODELS = [
  { ...testModel('auto', 0, { name: 'Auto', description: 'Picks a model for each message: your plan, attached images and the length of the chat decide.' }) },
  testModel('mini', 0, { name: 'Mini' }),
  testModel('pro', 1, { name: 'Pro', minVipLevelName: 'Standard', locked: true }),
  testModel('ultra', 2, { name: 'Ultra', minVipLevelName: 'Advanced', locked: true }),
];
const standardUser = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 1, vipPackageName: 'Standard', endTime: '2027-11-25T00:00:00Z' } };

const server = serveTheseTests(
  fakeApi({
    '/api/Chat/GetModelListAll': answer(MODELS),
    '/api/Vip/GetVipPackageList': (_req, res, url) => answer(packageList(url.searchParams.get('currency') ?? 'usd'))(_req, res, url),
    '/api/Vip/GetSubscription': answer(null),
  }),
);

/** Runs of Latin letters (words joined by spaces or hyphens) in `text` that are not allowed. */
function latinRuns(text: string): string[] {
  // The user's own data (e-mail addresses) is not UI text.
  const ui = text.replace(/\S+@\S+\.\w+/g, ' ');
  return (ui.match(/[A-Za-z][A-Za-z'-]*(?:\s+[A-Za-z][A-Za-z'-]*)*/g) ?? []).filter((run) => !run.split(/\s+/).every((word) => ALLOWED.has(word)));
}

/** The text a reader sees in `root`: without style sheets and scripts. */
function shownText(root: HTMLElement = document.body): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const element of copy.querySelectorAll('style, script')) element.remove();
  return copy.textContent ?? '';
}

async function inChinese(ui: React.ReactElement, user = standardUser) {
  const result = await renderInApp(ui, { apiBase: server.url, user });
  await setLanguage('zh');
  return result;
}

describe('the main screens in Chinese', () => {
  it('pricing: plan names and what each unlocks', async () => {
    await inChinese(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />);
    await waitFor(() => expect(screen.getAllByTestId('plan-models')).toHaveLength(4));
    expect(shownText()).toContain('标准版');
    expect(latinRuns(shownText())).toEqual([]);
  });

  it('the model picker: Auto, its description, the group headers and the lock text', async () => {
    await inChinese(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />);
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveTextContent('自动'));
    await userEvent.click(screen.getByTestId('model-picker'));
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('需要标准版');
    expect(within(menu).getByText('高级版')).toBeInTheDocument();
    expect(latinRuns(shownText(menu))).toEqual([]);
  });

  it('settings and the sidebar badge: the plan by its Chinese name, with a full-width colon', async () => {
    await inChinese(
      <>
        <SettingsPage onBack={vi.fn()} />
        <PlanCard user={standardUser} />
      </>,
    );
    await screen.findByText('套餐：标准版');
    expect(screen.getByText('邮箱：alice@example.com')).toBeInTheDocument();
    expect(screen.getAllByText(/标准版/).length).toBeGreaterThanOrEqual(2);
    expect(latinRuns(shownText())).toEqual([]);
  });
});
