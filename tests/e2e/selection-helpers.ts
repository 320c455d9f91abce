import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, CDPSession, Page, Target, WebWorker } from 'puppeteer-core';

/**
 * Helpers of the selection toolbar's browser test and benchmark (tests/e2e/selection.e2e.test.ts,
 * bench/selection/run.ts): a realistic article served from loopback, the toolbar's buttons inside
 * the closed shadow root (reached through the DevTools protocol, as the page cannot), the side
 * panel's target.
 */

export const ARTICLE_PARAGRAPH =
  'Kelp forests are underwater ecosystems formed in shallow water by the dense growth of several different species known as kelps. ' +
  'Sea otters keep them healthy: by eating sea urchins, which graze on kelp, they stop the urchins from turning the forest into a barren.';

/** A news-site article, styled like one, with an image: what the toolbar is shown on. */
export const ARTICLE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>How sea otters save kelp forests | The Coastal Review</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  body { margin: 0; font: 18px/1.65 Georgia, 'Times New Roman', serif; color: #222; background: #fbfaf7; }
  header { border-bottom: 1px solid #ddd; background: #fff; padding: 14px 32px; font: 700 22px/1 Helvetica, Arial, sans-serif; letter-spacing: .5px; }
  header nav { float: right; font: 400 14px/22px Helvetica, Arial, sans-serif; } header nav a { margin-left: 18px; color: #555; text-decoration: none; }
  main { max-width: 700px; margin: 40px auto; padding: 0 24px; }
  .kicker { font: 700 13px/1 Helvetica, Arial, sans-serif; color: #0a7d5a; text-transform: uppercase; letter-spacing: 1px; }
  h1 { font-size: 40px; line-height: 1.15; margin: 10px 0 12px; }
  .byline { font: 14px/1.4 Helvetica, Arial, sans-serif; color: #666; margin-bottom: 28px; }
  figure { margin: 0 0 28px; } figure img { width: 100%; height: 220px; display: block; background: linear-gradient(135deg, #0b5d4b, #5fb49c); border-radius: 4px; }
  figcaption { font: 13px/1.4 Helvetica, Arial, sans-serif; color: #777; margin-top: 6px; }
</style></head><body>
<header>The Coastal Review<nav><a href="#">Oceans</a><a href="#">Climate</a><a href="#">Wildlife</a><a href="#">Subscribe</a></nav></header>
<main><article>
<div class="kicker">Wildlife</div>
<h1>How sea otters save kelp forests</h1>
<div class="byline">By Maya Rivers · March 3, 2026 · 6 min read</div>
<figure><img id="hero" alt="A kelp forest" src="/kelp.svg"><figcaption>Giant kelp off the coast of Monterey.</figcaption></figure>
<p id="lead">${ARTICLE_PARAGRAPH}</p>
<p id="second">When otters were hunted almost to extinction in the nineteenth century, urchin numbers exploded along the Pacific coast. Within decades, forests that had sheltered fish, seals and seabirds were gone.</p>
<p id="third">Today, where otters have returned, the kelp has come back with them, storing carbon and protecting the shore from storms. Scientists call the otter a keystone species: remove it, and the whole arch falls.</p>
<p><label>Your comment <textarea id="comment">Otters are great</textarea></label></p>
</article></main></body></html>`;

const KELP_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="700" height="220"><rect width="700" height="220" fill="#0b5d4b"/><path d="M60 220 C80 140 40 90 70 0 M160 220 C190 120 140 80 170 0 M300 220 C280 150 330 80 300 0 M460 220 C490 120 440 60 480 0 M600 220 C570 150 620 90 590 0" stroke="#7fd1ae" stroke-width="10" fill="none"/></svg>`;

/** The article at /article (and its image), on a loopback port of its own. */
export function startArticleSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/article') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE_HTML);
    else if (req.url === '/kelp.svg') res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(KELP_SVG);
    else res.writeHead(404).end();
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    ),
  );
}

type DomNode = { nodeId: number; nodeName: string; shadowRoots?: DomNode[]; children?: DomNode[]; shadowRootType?: string };

function findHost(node: DomNode, name = 'TANDEM-SIDER'): DomNode | undefined {
  if (node.nodeName === name) return node;
  for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) {
    const found = findHost(child, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * The centre of the element matching `selector` inside the toolbar's closed shadow root (or that of
 * the host element `hostName`: TANDEM-TRANSLATE-BAR for the page translator's bar), or null.
 * The DevTools protocol sees closed roots (the page's scripts do not).
 */
export async function shadowPoint(session: CDPSession, selector: string, hostName = 'TANDEM-SIDER'): Promise<{ x: number; y: number } | null> {
  const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
  const host = findHost(root, hostName);
  const shadow = host?.shadowRoots?.[0];
  if (!shadow) return null;
  const { nodeId } = await session.send('DOM.querySelector', { nodeId: shadow.nodeId, selector });
  if (!nodeId) return null;
  try {
    const { model } = await session.send('DOM.getBoxModel', { nodeId });
    const [x1, y1, , , x3, y3] = model.content;
    if (model.width === 0 || model.height === 0) return null;
    return { x: (x1 + x3) / 2, y: (y1 + y3) / 2 };
  } catch {
    return null;
  }
}

/** Runs the function `fn` (its source) on the element matching `selector` in host `hostName`'s closed shadow root; its value, or null. */
export async function shadowEval<T>(session: CDPSession, selector: string, fn: string, hostName = 'TANDEM-SIDER'): Promise<T | null> {
  const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
  const shadow = findHost(root, hostName)?.shadowRoots?.[0];
  if (!shadow) return null;
  const { nodeId } = await session.send('DOM.querySelector', { nodeId: shadow.nodeId, selector });
  if (!nodeId) return null;
  const { object } = await session.send('DOM.resolveNode', { nodeId });
  const { result } = await session.send('Runtime.callFunctionOn', { objectId: object.objectId!, functionDeclaration: fn, returnByValue: true });
  return result.value as T;
}

/** The shadow root's type as the protocol reports it ('closed'). */
export async function shadowRootType(session: CDPSession): Promise<string | undefined> {
  const { root } = (await session.send('DOM.getDocument', { depth: -1, pierce: true })) as unknown as { root: DomNode };
  return findHost(root)?.shadowRoots?.[0]?.shadowRootType;
}

/** Waits until `selector` is visible in the shadow root; its centre. */
export async function waitForShadow(session: CDPSession, selector: string, timeout = 10_000, hostName = 'TANDEM-SIDER'): Promise<{ x: number; y: number }> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const point = await shadowPoint(session, selector, hostName);
    if (point) return point;
    if (Date.now() > deadline) throw new Error(`${selector} did not show in the toolbar's shadow root`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Selects the text of the element `selector` the way a user does: a triple click (real mouse events). */
export async function selectParagraph(page: Page, selector: string): Promise<void> {
  await page.click(selector, { count: 3 });
}

/** The extension's service worker (its globals: the selection test hooks). */
export async function serviceWorker(browser: Browser): Promise<WebWorker> {
  const target = await browser.waitForTarget((t) => t.type() === 'service_worker' && t.url().endsWith('/background.js'));
  const worker = await target.worker();
  if (!worker) throw new Error('no service worker');
  return worker;
}

/** The side panel's target, once Chrome has opened it (sidePanel.open from the click's gesture). */
export function isSidePanel(target: Target): boolean {
  return target.url().includes('/sidepanel.html');
}
