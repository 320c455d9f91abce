import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVideoSite, type VideoSite } from '../fixtures/videos/serve.ts';
import { type ExtensionBrowser, launchWithExtension, openSignedInPanel, openTabBeside, screenshot, screenshotOnFailure, type Stack, startStack, useServer } from './harness.ts';

/**
 * "Summarise this video" in the side panel, in Chromium with the extension: a saved-copy-style
 * YouTube watch page served on loopback (its caption track on the same server), the transcript read
 * in the tab and sent to the model with [mm:ss] lines, and the answer's timestamps seeking the page's
 * <video>. The fake upstream records what the model received and answers with scripted chunks.
 */
describe('Videos in the side panel', () => {
  let stack: Stack;
  let ext: ExtensionBrowser;
  let site: VideoSite;
  let panel: Page;
  let video: Page;
  const MODELS = ['basic-model', 'standard-model', 'pro-model'];
  const lastUserContent = () => String(stack.upstream.requests.at(-1)!.body.messages.at(-1).content);

  beforeAll(async () => {
    [stack, ext, site] = await Promise.all([startStack(), launchWithExtension(), startVideoSite()]);
    await useServer(ext.control, stack.origin);
    panel = await openSignedInPanel(ext, stack);
    video = await openTabBeside(ext, `${site.origin}/watch?v=otter01`);
  });

  screenshotOnFailure('video', () => [panel, video]);

  afterAll(async () => {
    await ext?.close();
    await stack?.close();
    await site?.close();
  });

  /** Clicks "Summarise this video" and waits for the whole answer. */
  async function summarise(label: string): Promise<void> {
    const button = await panel.waitForSelector(`::-p-aria(${label})`, { timeout: 15_000 });
    await button!.click();
    await panel.waitForSelector('[data-testid="chat-turn"] [data-author="model"] .md-view[data-video-times] .md-time[data-md-seconds="65"]', { timeout: 20_000 });
    await panel.waitForSelector('::-p-aria(Send), ::-p-aria(发送)');
  }

  it('summarises the video from its transcript, and a timestamp of the answer seeks the player', async () => {
    for (const model of MODELS) {
      stack.upstream.script(model, {
        chunks: ['**Summary**\n\n- [00:00] Sea otters are among the few mammals that use tools.\n', '- [01:05] The otter picks a flat stone and keeps it under its arm.\n', '- [02:30] It cracks the clam on the stone.'],
      });
    }
    await summarise('Summarise this video: How sea otters use tools - YouTube');

    // The transcript was read in the tab (the caption track fetched there as json3) and reached the model.
    expect(site.requests.some((r) => r.startsWith('/api/timedtext?') && r.includes('fmt=json3') && r.includes('lang=en'))).toBe(true);
    const sent = lastUserContent();
    expect(sent).toContain('[01:05] First the otter chooses a flat stone and keeps it in a pouch under its arm.');
    expect(sent).toContain('[02:30] Then it floats on its back and strikes the clam on the stone.');
    expect(sent).toContain('- [01:05] Choosing a stone');
    expect(sent).toMatch(/cite its timestamp/);
    expect(sent.trim().endsWith('Summarise this video: its main points in order, each with its timestamp as [mm:ss] from the transcript.')).toBe(true);

    // The button's tooltip (the pointer is still over it) would hide the answer.
    await panel.mouse.move(200, 300);
    await screenshot(panel, 'video-summary-en');
    expect(await video.evaluate(() => document.querySelector('video')!.currentTime)).toBe(0);
    await panel.click('[data-testid="chat-turn"] [data-author="model"] .md-time[data-md-seconds="65"]');
    await video.waitForFunction(() => document.querySelector('video')!.currentTime === 65, { timeout: 5_000 });
    await panel.click('[data-testid="chat-turn"] [data-author="model"] .md-time[data-md-seconds="150"]');
    await video.waitForFunction(() => document.querySelector('video')!.currentTime === 150, { timeout: 5_000 });
  });

  it('in Chinese: reads the Simplified Chinese captions and answers with clickable timestamps', async () => {
    await ext.control.evaluate(() => chrome.storage.local.set({ 'tandem.language': { v: 1, value: 'zh' } }));
    for (const model of MODELS) {
      stack.upstream.script(model, { chunks: ['**视频要点**\n\n- [00:00] 海獭是少数会使用工具的哺乳动物。\n', '- [01:05] 海獭挑选一块扁平的石头。\n', '- [02:30] 它把蛤蜊砸在石头上。'] });
    }
    await panel.goto(`chrome-extension://${ext.extensionId}/sidepanel.html`);
    await video.bringToFront();
    await summarise('总结这个视频：How sea otters use tools - YouTube');
    const sent = lastUserContent();
    expect(sent).toContain('[01:05] 首先，海獭挑选一块扁平的石头，放在腋下的皮囊里。');
    expect(sent).toContain('Transcript: captions (zh-Hans)');
    await panel.mouse.move(200, 300);
    await screenshot(panel, 'video-summary-zh');
    await panel.click('[data-testid="chat-turn"] [data-author="model"] .md-time[data-md-seconds="65"]');
    await video.waitForFunction(() => document.querySelector('video')!.currentTime === 65, { timeout: 5_000 });
  });
});
