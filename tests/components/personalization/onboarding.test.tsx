import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { OnboardingGate } from '../../../components/personalization/onboarding.tsx';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePersonalizationApi, freshState, type FakeState } from './fake-personalization.ts';

let state: FakeState;
const server = serveTheseTests(fakePersonalizationApi(() => state));
beforeEach(() => {
  state = freshState();
});
const saves = () => server.requests.filter((r) => r.url === '/api/Personalization/Save').map((r) => JSON.parse(r.body));

describe('the memory onboarding', () => {
  it('walks a new user through the steps and saves the answers once, at the end', async () => {
    await renderInApp(<OnboardingGate />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Make Tandem yours')).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('What do you do?'), 'Night nurse');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    expect(screen.getByText('Step 2 of 4')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Concise' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Friendly' }));
    expect(screen.getByRole('textbox')).toHaveValue('Concise, Friendly');
    await userEvent.type(screen.getByRole('textbox'), ', uses examples');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    // A step may be skipped: its answer stays empty.
    await userEvent.type(screen.getByLabelText('Anything else it should know about you?'), 'will be skipped');
    // One way to skip a question and another, named apart, to leave the whole card for later.
    expect(screen.getAllByRole('button', { name: /skip/i }).map((b) => b.textContent)).toEqual(['Skip this question']);
    await userEvent.click(screen.getByRole('button', { name: 'Skip this question' }));

    expect(screen.getByText('Which language should answers be in?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Français' }));
    // Back keeps what was typed.
    await userEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByLabelText('Anything else it should know about you?')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(saves()).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Finish' }));

    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(saves()).toEqual([
      { occupation: 'Night nurse', traits: 'Concise, Friendly, uses examples', otherInfo: '', answerLanguage: 'Français', onboarding: 'done' },
    ]);
  });

  it('can be skipped as a whole, and is then not shown again', async () => {
    const first = await renderInApp(<OnboardingGate />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Set up later' }));
    await waitFor(() => expect(screen.queryByTestId('onboarding')).toBeNull());
    expect(saves()).toEqual([{ onboarding: 'skipped' }]);
    first.unmount();

    await renderInApp(<OnboardingGate />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(server.requests.filter((r) => r.url === '/api/Personalization/Get')).toHaveLength(2));
    expect(screen.queryByTestId('onboarding')).toBeNull();
  });

  it('shows nothing to a visitor or to an account that already finished it', async () => {
    const visitor = await renderInApp(<OnboardingGate />, { apiBase: server.url, user: null });
    expect(server.requests).toHaveLength(0);
    visitor.unmount();
    state = freshState({ onboarding: 'done' });
    await renderInApp(<OnboardingGate />, { apiBase: server.url, user: testUser });
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/Personalization/Get')).toBe(true));
    expect(screen.queryByTestId('onboarding')).toBeNull();
  });
});
