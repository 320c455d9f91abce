import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PricingPage } from '../../../components/plans/pricing-page.tsx';
import { loginDialogAtom } from '../../../shared/atoms/login-dialog.ts';
import type { CatalogueModel } from '../../../shared/contracts/model.ts';
import type { Subscription } from '../../../shared/contracts/plans.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { sendEnvelope } from '../../helpers/http-server.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { packageList, packageModelsRoute } from './fake-plans.ts';

let checkoutAvailable: boolean;
/** Currencies the server has packages in; others answer the free plan alone, as the server does. */
let priced: string[];
let subscription: Subscription | null;
/** The served catalogue, in its order; what each package unlocks is read from it by level. */
let catalogue: CatalogueModel[];
/** Package ids whose model list fails (a transport error the page cannot mend). */
let failing: string[];

// No model at the Standard level: Standard unlocks nothing the free plan does not (the case the old fixed text hid).
const BASE_CATALOGUE = [testModel('mini', 0, { name: 'Mini' }), testModel('lite', 0, { name: 'Lite' }), testModel('pro', 2, { name: 'Pro' }), testModel('ultra', 3, { name: 'Ultra' })];
const servedModels = packageModelsRoute(() => catalogue);

const server = serveTheseTests(
  fakeApi({
    '/api/Vip/GetVipPackageList': (_req, res, url) => {
      const currency = url.searchParams.get('currency') ?? 'usd';
      const list = packageList(currency, checkoutAvailable);
      sendEnvelope(res, { Code: 10000, Data: priced.includes(currency) ? list : { ...list, list: list.list.slice(0, 1) } });
    },
    '/api/Vip/GetSubscription': (_req, res) => sendEnvelope(res, { Code: 10000, Data: subscription }),
    '/api/AiModel/GetModelListByVipPackageId': (req, res, url) =>
      failing.includes(url.searchParams.get('vipPackageId') ?? '') ? sendEnvelope(res, { Code: 10404, Msg: 'gone' }) : servedModels(req, res, url),
    '/api/Vip/CreateCheckout': (req, res) => {
      const body = JSON.parse(req.body) as { couponCode?: string };
      if (body.couponCode === 'NOPE') {
        return sendEnvelope(res, { Code: 10400, Msg: 'The coupon code NOPE is not valid or has expired. Check it, or pay without it.' });
      }
      sendEnvelope(res, { Code: 10000, Data: { url: 'https://checkout.stripe.test/c/pay/cs_test_1' } });
    },
  }),
);

beforeEach(() => {
  checkoutAvailable = true;
  priced = ['usd', 'cny'];
  subscription = null;
  catalogue = BASE_CATALOGUE;
  failing = [];
});
afterEach(() => vi.restoreAllMocks());

const calls = (path: string) => server.requests.filter((r) => r.url.startsWith(path));
const card = (id: string) => document.querySelector<HTMLElement>(`[data-testid="plan-card"][data-package="${id}"]`)!;
const shownIds = () => screen.getAllByTestId('plan-card').map((c) => c.dataset.package);
const models = (id: string) => within(card(id)).getByTestId('plan-models').textContent;
/** What every shown card says its plan unlocks (null while its lists load); each card loads its own. */
const shownModels = () => Object.fromEntries(shownIds().map((id) => [id, card(id!).querySelector('[data-testid="plan-models"]')?.textContent ?? null]));
/** The packages whose models were asked for, each once. */
const askedModelsOf = () => [...new Set(calls('/api/AiModel/GetModelListByVipPackageId').map((r) => new URL(r.url, 'http://x').searchParams.get('vipPackageId')))];
/** Nine Super-only models, after the base catalogue. */
const MANY = [...BASE_CATALOGUE, ...Array.from({ length: 9 }, (_, i) => testModel(`s${i + 1}`, 3, { name: `S${i + 1}` }))];

describe('PricingPage', () => {
  it('lists the monthly plans, then the yearly ones with the best-deal tag, and marks the free plan as current', async () => {
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await screen.findAllByTestId('plan-card');
    expect(new URL(calls('/api/Vip/GetVipPackageList')[0]!.url, 'http://x').searchParams.get('currency')).toBe('usd');
    expect(shownIds()).toEqual(['free', 'standard-month', 'advanced-month', 'super-month']);
    const advanced = card('advanced-month');
    expect(advanced).toHaveTextContent(/\$19\.99 \/ month/);
    expect(advanced).toHaveTextContent('20,000 points per month');
    expect(card('free')).toHaveTextContent('50 free points a day');
    // What each card lists is what the server says the package unlocks, never a fixed promise.
    await waitFor(() =>
      expect(shownModels()).toEqual({
        free: 'Models: Mini, Lite',
        'standard-month': 'The same models as Free',
        'advanced-month': 'Everything in Standard, plus Pro',
        'super-month': 'Everything in Advanced, plus Ultra',
      }),
    );
    expect(askedModelsOf().sort()).toEqual(['advanced-month', 'free', 'standard-month', 'super-month']);
    expect(card('standard-month')).not.toHaveTextContent(/Advanced models|Pro/);
    expect(within(card('free')).getByTestId('current-plan')).toHaveTextContent('Current plan');
    expect(screen.getAllByTestId('current-plan')).toHaveLength(1);
    expect(screen.queryByText('Best deal')).toBeNull();

    await userEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(shownIds()).toEqual(['free', 'standard-year', 'advanced-year', 'super-year']);
    const yearly = card('advanced-year');
    expect(yearly).toHaveTextContent(/\$191\.90 \/ year/);
    expect(yearly).toHaveTextContent('$15.99 a month, billed yearly');
    expect(yearly).toHaveTextContent('240,000 points at once for the year');
    await waitFor(() => expect(models('advanced-year')).toBe('Everything in Standard, plus Pro'));
    expect(askedModelsOf()).toContain('super-year');
    expect(within(yearly).getByText('Best deal')).toBeInTheDocument();
    expect(screen.getAllByText('Best deal')).toHaveLength(1);
  });

  it("marks the subscriber's plan, by level and period", async () => {
    subscription = { subscriptionId: 'sub_1', status: 'active', level: 2, packageName: 'Advanced', period: 'year', currentPeriodEnd: '2027-11-25T00:00:00.000Z', cancelAtPeriodEnd: false, portalAvailable: true };
    const user = { ...testUser, vipOrder: { vipOrderId: 'o1', vipPackageLevel: 2, vipPackageName: 'Advanced', endTime: '2027-11-25T00:00:00Z' } };
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user });
    await screen.findAllByTestId('plan-card');
    await screen.findByText('Manage subscription');
    expect(screen.queryAllByTestId('current-plan')).toHaveLength(0);
    await userEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(screen.getAllByTestId('current-plan')).toHaveLength(1);
    expect(within(card('advanced-year')).getByTestId('current-plan')).toBeInTheDocument();
  });

  it('subscribes: CreateCheckout with the package, currency and coupon, and the checkout opens in a new tab from the extension', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser, platform: { isExtension: true, scene: 'extension' } });
    await screen.findAllByTestId('plan-card');
    await userEvent.click(screen.getByRole('radio', { name: /Yearly/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Have a coupon code?' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Coupon code' }), 'NOPE');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe to Advanced, Yearly' }));
    expect(await screen.findByTestId('checkout-error')).toHaveTextContent('The coupon code NOPE is not valid or has expired.');
    expect(open).not.toHaveBeenCalled();

    await userEvent.clear(screen.getByRole('textbox', { name: 'Coupon code' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Coupon code' }), ' SPRING ');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe to Advanced, Yearly' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_test_1', '_blank', 'noopener,noreferrer'));
    expect(calls('/api/Vip/CreateCheckout').map((r) => JSON.parse(r.body))).toEqual([
      { vipPackageId: 'advanced-year', currency: 'usd', couponCode: 'NOPE' },
      { vipPackageId: 'advanced-year', currency: 'usd', couponCode: 'SPRING' },
    ]);
    expect(screen.getByText(/The payment page opened in a new tab/)).toBeInTheDocument();
    expect(screen.queryByTestId('checkout-error')).toBeNull();
  });

  it('asks a visitor to sign in before subscribing', async () => {
    const { store } = await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: null });
    await screen.findAllByTestId('plan-card');
    expect(screen.queryAllByTestId('current-plan')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe to Standard, Monthly' }));
    expect(store.get(loginDialogAtom)).toEqual({ open: true, notice: 'plans.signInTip' });
    expect(calls('/api/Vip/CreateCheckout')).toHaveLength(0);
    expect(calls('/api/Vip/GetSubscription')).toHaveLength(0);
  });

  it('says how to get a plan when checkout is not available, with no subscribe button', async () => {
    checkoutAvailable = false;
    const onNavigate = vi.fn();
    const { unmount } = await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={onNavigate} />, { apiBase: server.url, user: testUser });
    const notice = await screen.findByTestId('checkout-unavailable');
    expect(notice).toHaveTextContent('Ask your administrator for a plan or use a redeem code.');
    expect(screen.getAllByTestId('plan-card')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: /^Subscribe/ })).toBeNull();
    expect(screen.queryByText('Have a coupon code?')).toBeNull();
    await userEvent.click(within(notice).getByRole('button', { name: 'Open settings to redeem a code' }));
    expect(onNavigate).toHaveBeenCalledWith('/setting/points');
    unmount();

    // With the redeem entry the layout composes, that is offered instead.
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={onNavigate} redeemEntry={<button type="button">Use a redeem code</button>} />, { apiBase: server.url, user: testUser });
    const again = await screen.findByTestId('checkout-unavailable');
    expect(within(again).getByRole('button', { name: 'Use a redeem code' })).toBeInTheDocument();
    expect(within(again).queryByText('Open settings to redeem a code')).toBeNull();
  });

  it('prices in yuan in Chinese, and in dollars when the server has no yuan prices', async () => {
    await setLanguage('zh');
    const { unmount } = await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    await waitFor(() => expect(card('standard-month')).toHaveTextContent(/¥68\.00 \/ 月/));
    expect(calls('/api/Vip/GetVipPackageList').map((r) => new URL(r.url, 'http://x').searchParams.get('currency'))).toContain('cny');
    unmount();

    priced = ['usd'];
    server.requests.length = 0;
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    await waitFor(() => expect(card('standard-month')).toHaveTextContent(/US\$9\.99 \/ 月/));
    // Asked in yuan, answered with the free plan alone: asked again in dollars.
    expect(calls('/api/Vip/GetVipPackageList').map((r) => new URL(r.url, 'http://x').searchParams.get('currency')).slice(-2)).toEqual(['cny', 'usd']);
  });

  it('lists a handful of names, says how many more, and opens them all on demand', async () => {
    catalogue = MANY;
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: null });
    await waitFor(() =>
      expect(shownModels()).toEqual({
        free: 'Models: Mini, Lite',
        'standard-month': 'The same models as Free',
        'advanced-month': 'Everything in Standard, plus Pro',
        'super-month': 'Everything in Advanced, plus Ultra, S1, S2, S3, S4, S5 and 4 more',
      }),
    );
    // A short list has nothing to open.
    expect(screen.getAllByRole('button', { name: /^Show all/ })).toHaveLength(1);

    const open = within(card('super-month')).getByRole('button', { name: 'Show all models of Super' });
    expect(open).toHaveTextContent('Show all 10');
    expect(open).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(open);
    expect(models('super-month')).toBe('Everything in Advanced, plus Ultra, S1, S2, S3, S4, S5, S6, S7, S8, S9');
    const close = within(card('super-month')).getByRole('button', { name: 'Show fewer models of Super' });
    expect(close).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(close);
    expect(models('super-month')).toBe('Everything in Advanced, plus Ultra, S1, S2, S3, S4, S5 and 4 more');
  });

  it("follows the server's list for the package, and says so when it cannot be read", async () => {
    // A model taken offline is not in the server's answer: no card names it.
    catalogue = BASE_CATALOGUE.filter((m) => m.aiModelId !== 'pro');
    failing = ['super-month'];
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    // The other cards are not held up by the one that failed.
    await waitFor(() =>
      expect(shownModels()).toEqual({
        free: 'Models: Mini, Lite',
        'standard-month': 'The same models as Free',
        'advanced-month': 'The same models as Standard',
        'super-month': "Couldn't load this plan's models.",
      }),
    );
    expect(document.body).not.toHaveTextContent('Pro');
  });

  it('names the models in Chinese punctuation and words', async () => {
    catalogue = MANY;
    await setLanguage('zh');
    await renderInApp(<PricingPage onBack={vi.fn()} onNavigate={vi.fn()} />, { apiBase: server.url, user: testUser });
    await setLanguage('zh');
    await waitFor(() =>
      expect(shownModels()).toEqual({
        free: '可用模型：Mini、Lite',
        'standard-month': '与免费版的模型相同',
        'advanced-month': '包含标准版的全部模型，另加 Pro',
        'super-month': '包含高级版的全部模型，另加 Ultra、S1、S2、S3、S4、S5，另有 4 个',
      }),
    );
    await userEvent.click(within(card('super-month')).getByRole('button', { name: '查看至尊版的全部模型' }));
    expect(models('super-month')).toBe('包含高级版的全部模型，另加 Ultra、S1、S2、S3、S4、S5、S6、S7、S8、S9');
    expect(within(card('super-month')).getByRole('button', { name: '收起至尊版的模型' })).toHaveTextContent('收起');
  });
});
