import i18next from 'i18next';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MarkdownView } from '../../components/ui/markdown-view.tsx';
import { loadKatex } from '../../shared/markdown/math.ts';
import { renderMarkdown } from '../../shared/markdown/render.ts';
import { STREAM_FIXTURE, buildFixture } from './fixture.ts';

/**
 * Streams the fixture into MarkdownView 50 characters at a time, as AddMessage updates arrive, and
 * times each update: React render and commit (flushSync) plus the layout it causes. 'naive' renders
 * the whole text with the plain renderer on every update, which is what the block cache avoids.
 */
export type Mode = 'incremental' | 'naive';

export interface RunResult {
  /** Each update: the render plus the layout that scrolling to the bottom forces. */
  updates: number[];
  /** The render part of each update alone (React and the markdown renderer). */
  renders: number[];
  longTasks: number[];
}

const STEP = 50;

function NaiveView({ text }: { text: string }) {
  return <div className="md-view" dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
}

// Button labels do not change the timing: no translations are loaded, keys show as labels.
const i18n = i18next.createInstance();
await i18n.use(initReactI18next).init({ lng: 'en', resources: {} });

// Updates arrive from the network, not back to back: let the browser paint between them.
const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Runs the same code paths on a different answer: JIT, fonts and grammars warm, block caches cold. */
const WARMUP_FIXTURE = buildFixture(15_000, 100);

async function run(mode: Mode | 'warmup'): Promise<RunResult> {
  // Both sides measure typesetting, not the one-off fetch of KaTeX.
  await loadKatex();
  const fixture = mode === 'warmup' ? WARMUP_FIXTURE : STREAM_FIXTURE;
  const stage = document.getElementById('stage')!;
  const container = document.createElement('div');
  stage.replaceChildren(container);
  const root = createRoot(container);
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const updates: number[] = [];
  const renders: number[] = [];
  const length = fixture.length;
  for (let end = STEP; ; end += STEP) {
    const text = fixture.slice(0, Math.min(end, length));
    const view = mode === 'naive' ? <NaiveView text={text} /> : <MarkdownView text={text} streaming />;
    const started = performance.now();
    flushSync(() => root.render(<I18nextProvider i18n={i18n}>{view}</I18nextProvider>));
    renders.push(performance.now() - started);
    // Follow the stream as the chat does; reading scrollHeight makes the browser lay out now, inside
    // the measured span.
    stage.scrollTop = stage.scrollHeight;
    updates.push(performance.now() - started);
    await nextFrame();
    if (end >= length) break;
  }
  await nextFrame();
  observer.disconnect();
  root.unmount();
  return { updates, renders, longTasks };
}

declare global {
  interface Window {
    __bench: { run: (mode: Mode | 'warmup') => Promise<RunResult> };
  }
}

window.__bench = { run };
