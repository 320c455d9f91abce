import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatView } from '../../../components/chat/chat-view.tsx';
import { chatModels, resolveModel } from '../../../shared/utils/default-model.ts';
import { answer, fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp, testUser } from '../../helpers/render-app.tsx';

/**
 * The chat's picker offers chat models only: an image generator the catalogue lists is not among
 * them, nor is it ever the model a message goes to. A model without types (an older server's) is a
 * chat model.
 */
const PAINTER = testModel('painter', 1, { name: 'Painter', types: ['image'] });
const MODELS = [
  testModel('auto', 0),
  PAINTER,
  testModel('basic', 1, { types: ['chat'] }),
  testModel('seer', 1, { types: ['chat', 'vision'], modelMap: { isImage: true, fileTypes: [] } }),
  testModel('older', 0, { types: [] }),
];

const server = serveTheseTests(fakeApi({ '/api/Chat/GetModelListAll': answer(MODELS) }));

describe('chat models', () => {
  it('are the models with the chat type, and those of an older server without types', () => {
    expect(chatModels(MODELS).map((m) => m.aiModelId)).toEqual(['auto', 'basic', 'seer', 'older']);
    // The default rule (first model of the lowest paid level) would pick the painter; a pick of it is not kept either.
    expect(resolveModel(MODELS, null)?.aiModelId).toBe('basic');
    expect(resolveModel(MODELS, 'painter')?.aiModelId).toBe('basic');
  });

  it('are all the chat’s picker offers: the image generator is not listed', async () => {
    await renderInApp(<ChatView sessionId={undefined} onSessionCreated={vi.fn()} />, { apiBase: server.url, user: testUser });
    const picker = await screen.findByTestId('model-picker');
    await waitFor(() => expect(picker).toHaveTextContent('basic'));
    await userEvent.click(picker);
    const menu = await screen.findByRole('menu', { hidden: true });
    await within(menu).findAllByRole('menuitem', { hidden: true });
    const listed = [...menu.querySelectorAll<HTMLElement>('[data-model-id]')].map((el) => el.dataset.modelId);
    expect(listed.sort()).toEqual(['auto', 'basic', 'older', 'seer']);
    expect(within(menu).queryByText('Painter')).toBeNull();
  });
});
