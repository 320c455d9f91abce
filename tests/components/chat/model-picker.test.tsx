import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Composer } from '../../../components/chat/composer.tsx';
import { ModelPicker } from '../../../components/chat/model-picker.tsx';
import type { ModelListItem } from '../../../shared/contracts/model.ts';
import { setLanguage } from '../../../shared/i18n/i18n.ts';
import { fakeApi, serveTheseTests } from '../../helpers/fake-api.ts';
import { testModel } from '../../helpers/models.ts';
import { renderInApp } from '../../helpers/render-app.tsx';

/**
 * The model picker says what each model is, as Sider and LobeChat do: the operator's line about it,
 * what it reads, whether it searches the web, its plan and what a message costs; and its button
 * keeps the chosen model's name however little room the composer leaves it.
 */
const server = serveTheseTests(fakeApi({}));

const AUTO = testModel('auto', 0, { name: 'Auto', description: 'The server says this in English.', pointsCost: 1 });
const VISION = testModel('vision', 1, {
  name: 'Vision',
  description: 'Sees pictures and reads documents.',
  modelMap: { isImage: true, fileTypes: ['pdf', 'docx', 'txt'] },
  webSearch: true,
  pointsCost: 3,
});
const PLAIN = testModel('plain', 0, { name: 'Plain', pointsCost: 0 });
const METERED = testModel('metered', 1, { name: 'Metered', pointsCost: 2, tokenPrice: { inputPer1k: 0.5, outputPer1k: 1.5 } });
const LOCKED = testModel('locked', 2, { name: 'Locked', locked: true, pointsCost: 8, webSearch: true });
const DOCS = testModel('docs', 0, { name: 'Docs', modelMap: { isImage: false, fileTypes: ['pdf', 'py'] } });
const MODELS = [AUTO, PLAIN, DOCS, VISION, METERED, LOCKED];

async function openPicker(models: readonly ModelListItem[] = MODELS, selected: ModelListItem = VISION) {
  await renderInApp(<ModelPicker models={models} selected={selected} onSelect={vi.fn()} />, { apiBase: server.url });
  await userEvent.click(screen.getByTestId('model-picker'));
  return menuWithItems();
}

/** The open menu once its items are there (a chunk fetched when the picker shows: model-menu-items.tsx). */
async function menuWithItems() {
  const menu = await screen.findByRole('menu', { hidden: true });
  await within(menu).findAllByRole('menuitem', { hidden: true });
  return menu;
}

/** The menu item of the model `id`. */
const item = (menu: HTMLElement, id: string) => menu.querySelector<HTMLElement>(`[data-model-id="${id}"]`)!;
/** What one fact of an item says, or null when the item does not have it. */
const fact = (menu: HTMLElement, id: string, testId: string) => within(item(menu, id)).queryByTestId(testId);

describe('what each model is', () => {
  it('says in words that a model reads images and files, and that it searches the web', async () => {
    const menu = await openPicker();
    expect(fact(menu, 'vision', 'model-reads')).toHaveTextContent(/^Images · PDF, Word and text files$/);
    expect(fact(menu, 'vision', 'model-web-search')).toHaveTextContent('Web search');
    // A model that reads only text and has no web search says neither.
    expect(fact(menu, 'plain', 'model-reads')).toBeNull();
    expect(fact(menu, 'plain', 'model-web-search')).toBeNull();
    // Files without images: the files alone.
    expect(fact(menu, 'docs', 'model-reads')).toHaveTextContent(/^PDF and code files$/);
    expect(within(item(menu, 'vision')).getByTestId('model-description')).toHaveTextContent('Sees pictures and reads documents.');
  });

  it('says what a message costs, in points, with the full sentence for hover and screen readers', async () => {
    const menu = await openPicker();
    const cost = fact(menu, 'vision', 'model-cost')!;
    expect(cost).toHaveTextContent('3 points / message');
    expect(cost).toHaveAttribute('title', 'Each message costs 3 points');
    expect(fact(menu, 'plain', 'model-cost')).toHaveTextContent(/^Free/);
    expect(fact(menu, 'plain', 'model-cost')).toHaveAttribute('title', 'Messages with this model cost no points');
    // Priced by tokens: the hold is a floor, and the price per 1,000 tokens is in the sentence.
    const metered = fact(menu, 'metered', 'model-cost')!;
    expect(metered).toHaveTextContent('From 2 points, by tokens');
    expect(metered.getAttribute('title')).toContain('0.5 per 1,000 input tokens and 1.5 per 1,000 output tokens');
    // Auto costs what the model it picks costs: the range over the models the plan reaches.
    expect(fact(menu, 'auto', 'model-cost')).toHaveTextContent('0–3+ points / message');
  });

  it("names each model's plan, and the plan that unlocks a locked one", async () => {
    const menu = await openPicker();
    expect(fact(menu, 'vision', 'model-plan')).toHaveTextContent(/^Standard$/);
    expect(fact(menu, 'locked', 'model-plan')).toHaveTextContent(/^Needs the Advanced plan$/);
    expect(item(menu, 'locked')).toHaveAttribute('data-locked', 'true');
    // Open to everyone: no plan to name (they come first, under no plan's header).
    expect(fact(menu, 'plain', 'model-plan')).toBeNull();
  });

  it("gives Auto its own description in the reader's language, not the server's", async () => {
    const menu = await openPicker();
    const auto = within(item(menu, 'auto')).getByTestId('model-description');
    expect(auto).toHaveTextContent('Picks a model for each message: your plan, attached images and the length of the chat decide.');
    expect(menu).not.toHaveTextContent('The server says this in English.');
  });

  it('says it all in Chinese, with no English but the names of models and formats', async () => {
    await renderInApp(<ModelPicker models={MODELS} selected={VISION} onSelect={vi.fn()} />, { apiBase: server.url });
    await setLanguage('zh');
    await userEvent.click(screen.getByTestId('model-picker'));
    const menu = await menuWithItems();
    expect(fact(menu, 'vision', 'model-reads')).toHaveTextContent(/^图片 · PDF、Word和文本文件$/);
    expect(fact(menu, 'vision', 'model-web-search')).toHaveTextContent('联网搜索');
    expect(fact(menu, 'vision', 'model-cost')).toHaveTextContent('3 积分/条');
    expect(fact(menu, 'vision', 'model-cost')).toHaveAttribute('title', '每条消息消耗 3 积分');
    expect(fact(menu, 'metered', 'model-cost')).toHaveTextContent('2 积分起，按 Token 计费');
    expect(fact(menu, 'vision', 'model-plan')).toHaveTextContent(/^标准版$/);
    expect(fact(menu, 'locked', 'model-plan')).toHaveTextContent('需要高级版');
    expect(within(item(menu, 'auto')).getByTestId('model-description')).toHaveTextContent('为每条消息挑选模型');
    // What is left of Latin letters: the models' own names, the formats' names and Token.
    const walker = document.createTreeWalker(menu, NodeFilter.SHOW_TEXT);
    const texts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.textContent ?? '');
    for (const element of menu.querySelectorAll('[title], [aria-label]')) texts.push(element.getAttribute('title') ?? '', element.getAttribute('aria-label') ?? '');
    const latin = new Set(texts.flatMap((text) => text.match(/[A-Za-z]+/g) ?? []));
    const operatorText = new Set(['Sees', 'pictures', 'and', 'reads', 'documents']);
    expect([...latin].filter((word) => !operatorText.has(word)).sort()).toEqual(['Docs', 'Locked', 'Metered', 'PDF', 'Plain', 'Token', 'Vision', 'Word']);
  });
});

describe("the picker's button", () => {
  const LONG = testModel('long', 0, { name: 'An Extraordinarily Long Model Name From The Operator 2025 Edition' });

  it('shows the whole name, cut with an ellipsis only when there is no room, and names it in full on hover and to screen readers', async () => {
    await renderInApp(<ModelPicker models={[LONG]} selected={LONG} onSelect={vi.fn()} />, { apiBase: server.url });
    const button = screen.getByTestId('model-picker');
    expect(button).toHaveTextContent(LONG.name);
    expect(button).toHaveAttribute('title', LONG.name);
    expect(button).toHaveAccessibleName(`Model: ${LONG.name}. Choose a model`);
    const name = within(button).getByText(LONG.name);
    expect(name).toHaveStyle({ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
    // The button may be narrower than its name, never wider than its place.
    expect(button).toHaveStyle({ minWidth: '0px', maxWidth: '100%' });
  });

  it('keeps its place in the composer: it gives way to the tools down to a few letters, and the tools move to a second line before it goes', async () => {
    await renderInApp(
      <Composer
        streaming={false}
        onSend={vi.fn()}
        onStop={vi.fn()}
        webSearch={false}
        onWebSearchChange={vi.fn()}
        webSearchUnavailable={null}
        modelPicker={<ModelPicker models={[LONG]} selected={LONG} onSelect={vi.fn()} />}
      />,
      { apiBase: server.url },
    );
    const slot = screen.getByTestId('model-picker-slot');
    expect(slot).toContainElement(screen.getByTestId('model-picker'));
    expect(slot).toHaveStyle({ flexBasis: '88px', flexShrink: '1', minWidth: '0px', maxWidth: 'max-content' });
    // Its row wraps rather than squeezing the picker to nothing.
    expect(slot.parentElement!.getAttribute('style')).toContain('--group-wrap: wrap');
  });
});
