import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { GeneralSettings } from '../../../components/settings/general-section.tsx';
import settingsEn from '../../../locales/features/settings.en.json';
import { analyticsConsentPersisted, sendAnalyticsPageView } from '../../../shared/api/analytics.ts';
import { addEnglishStrings } from '../../../shared/i18n/feature-strings.ts';
import { loadPersisted, writePersisted } from '../../../shared/storage/active.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

addEnglishStrings(settingsEn);

const sentEvents = (server: { requests: { url: string; body: string }[] }) =>
  server.requests.filter((r) => r.url === '/api/Browser/AddGoogleAnalytics').map((r) => JSON.parse(r.body) as { event: string; consent: boolean; payload: Record<string, unknown> });

describe('usage statistics, when the server has analytics on', () => {
  const server = serveTheseTests(
    fakeApi({
      '/api/Browser/GetGoogleAnalytics': answer({ enabled: true, measurementId: 'G-TEST1234' }),
      '/api/Browser/AddGoogleAnalytics': answer({ forwarded: true }),
    }),
  );

  it('is off until the user turns it on: nothing is sent before', async () => {
    await renderInApp(<GeneralSettings />, { apiBase: server.url });
    const toggle = await screen.findByRole('switch', { name: 'Share anonymous usage statistics' });
    expect(toggle).not.toBeChecked();
    expect(await sendAnalyticsPageView('/pricing')).toBe(false);
    expect(sentEvents(server)).toEqual([]);

    await userEvent.click(toggle);
    await waitFor(async () => expect(await loadPersisted(analyticsConsentPersisted)).toBe(true));
    expect(await sendAnalyticsPageView('/pricing?tempKey=abc')).toBe(true);
    const [event] = sentEvents(server);
    expect(event).toMatchObject({ event: 'page_view', consent: true, payload: { current_url: `${window.location.origin}/pricing`, platform_user_agent: navigator.userAgent } });
    expect(typeof event!.payload.browser_id).toBe('string');
    // /user-vip records nothing, as for page views.
    expect(await sendAnalyticsPageView('/user-vip')).toBe(false);
  });
});

describe('usage statistics, when the server has no analytics', () => {
  const server = serveTheseTests(fakeApi({ '/api/Browser/GetGoogleAnalytics': answer({ enabled: false, measurementId: null }) }));

  it('offers no toggle and sends nothing, even with a consent stored', async () => {
    await renderInApp(<GeneralSettings />, { apiBase: server.url });
    expect(await screen.findByText('Appearance')).toBeVisible();
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/Browser/GetGoogleAnalytics')).toBe(true));
    expect(screen.queryByRole('switch', { name: 'Share anonymous usage statistics' })).toBeNull();
    await writePersisted(analyticsConsentPersisted, true);
    expect(await sendAnalyticsPageView('/pricing')).toBe(false);
    expect(sentEvents(server)).toEqual([]);
  });
});
