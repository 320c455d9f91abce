import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemorySection } from '../../../components/personalization/memory-section.tsx';
import { PersonalizationSection } from '../../../components/personalization/personalization-section.tsx';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { serveTheseTests } from '../../helpers/fake-api.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';
import { fakePersonalizationApi, freshState, promptOf, type FakeState } from './fake-personalization.ts';

let state: FakeState;
const server = serveTheseTests(fakePersonalizationApi(() => state));
beforeEach(() => {
  state = freshState({ onboarding: 'done', occupation: 'Baker' });
  state.memories = [
    { memoryId: 'm-old', fact: 'Lives in Oslo', sourceMessageId: null, createTime: '2026-11-24T10:00:00.000Z', updateTime: '2026-11-24T10:00:00.000Z' },
  ];
});
const posted = (path: string) => server.requests.filter((r) => r.url === path).map((r) => JSON.parse(r.body));

describe('the Personalization section', () => {
  it('edits and saves the form, and shows exactly what the server adds', async () => {
    await renderInApp(<PersonalizationSection />, { apiBase: server.url, user: testUser });
    const occupation = await screen.findByLabelText('Occupation');
    expect(occupation).toHaveValue('Baker');
    await userEvent.click(screen.getByTestId('prompt-preview-toggle'));
    expect(await screen.findByTestId('prompt-preview')).toHaveTextContent(/^Occupation: Baker - Lives in Oslo$/);

    await userEvent.clear(occupation);
    await userEvent.type(occupation, 'Pilot');
    await userEvent.type(screen.getByLabelText('Anything else the assistant should know'), 'Two cats');
    await userEvent.click(screen.getByRole('radio', { name: 'Deutsch' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posted('/api/Personalization/Save')).toHaveLength(1));
    expect(posted('/api/Personalization/Save')[0]).toEqual({ occupation: 'Pilot', traits: '', otherInfo: 'Two cats', answerLanguage: 'Deutsch' });
    // The preview is read again: it is the server's text, whatever that is.
    await waitFor(() => expect(screen.getByTestId('prompt-preview').textContent).toBe(promptOf(state)));
    expect(screen.getByTestId('prompt-preview')).toHaveTextContent('Occupation: Pilot');
  });

  it('switches personalization off; the preview then says nothing is added', async () => {
    await renderInApp(<PersonalizationSection />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('switch', { name: 'Use my personalization in chats' }));
    await waitFor(() => expect(posted('/api/Personalization/Save')).toEqual([{ enabled: false }]));
    state.memories = [];
    await userEvent.click(screen.getByTestId('prompt-preview-toggle'));
    expect(await screen.findByTestId('prompt-preview-empty')).toHaveTextContent('Nothing is added to your messages.');
  });

  it('speaks Chinese', async () => {
    await renderInApp(<PersonalizationSection />, { apiBase: server.url, user: testUser });
    await screen.findByLabelText('Occupation');
    await setLanguage('zh');
    expect(await screen.findByText('个性化')).toBeInTheDocument();
    expect(screen.getByLabelText('职业')).toHaveValue('Baker');
    await setLanguage('en');
  });
});

describe('the Memory section', () => {
  it('lists, adds, edits and deletes facts', async () => {
    await renderInApp(<MemorySection />, { apiBase: server.url, user: testUser });
    expect(await screen.findByText('Lives in Oslo')).toBeInTheDocument();
    expect(screen.getByText('1 of 50 facts')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('A fact to remember'), 'Writes Python{Enter}');
    expect(await screen.findByText('Writes Python')).toBeInTheDocument();
    expect(posted('/api/Memory/Save')).toEqual([{ fact: 'Writes Python' }]);

    const oslo = screen.getAllByTestId('memory-item').find((el) => el.textContent?.includes('Oslo'))!;
    await userEvent.click(within(oslo).getByRole('button', { name: 'Edit' }));
    const input = screen.getByRole('textbox', { name: 'Edit' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Lives in Bergen');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lives in Bergen')).toBeInTheDocument();
    expect(posted('/api/Memory/Update')).toEqual([{ memoryId: 'm-old', fact: 'Lives in Bergen' }]);

    const bergen = screen.getAllByTestId('memory-item').find((el) => el.textContent?.includes('Bergen'))!;
    await userEvent.click(within(bergen).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Lives in Bergen')).toBeNull());
    expect(posted('/api/Memory/Delete')).toEqual([{ memoryId: 'm-old' }]);
  });

  it('deletes all only after a confirmation, and switches memory off', async () => {
    await renderInApp(<MemorySection />, { apiBase: server.url, user: testUser });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete all' }));
    expect(screen.getByText('Forget all 1 remembered facts? This cannot be undone.')).toBeInTheDocument();
    expect(posted('/api/Memory/DeleteAll')).toEqual([]);
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete all' }).at(-1)!);
    expect(await screen.findByText(/Nothing remembered yet/)).toBeInTheDocument();
    expect(posted('/api/Memory/DeleteAll')).toHaveLength(1);

    const toggle = screen.getByRole('switch', { name: 'Use memory' });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Use memory' })).not.toBeChecked());
    expect(posted('/api/Memory/SetEnabled')).toEqual([{ enabled: false }]);
  });
});
