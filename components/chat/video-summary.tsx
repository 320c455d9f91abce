import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import type { ActiveTab, TabAccess } from '../../shared/platform/platform.ts';
import { sameVideo, videoPlatformOf, videoUrlAt } from '../../shared/utils/video-address.ts';
import { VideoTimesContext, type VideoTimes } from '../ui/video-times.ts';
import type { ChatTurn } from './use-chat.ts';
import strings from '../../locales/features/chat-video.en.json';

addEnglishStrings(strings);

/** The page buttons load after the panel's first paint: they wait for the active tab anyway. */
const PageActions = lazy(() => import('./page-actions.tsx'));

/** What the summary needs of the chat: its attachments' state and its send. */
export interface VideoSummaryHost {
  readTab: (tab: ActiveTab) => void;
  busy: boolean;
  ready: number;
  send: (text: string) => void;
}

/**
 * "Summarise this video": reads the tab in as "Read this page" does, and once the transcript is
 * attached (uploads done) sends the request for a timestamped summary; a failed read sends nothing.
 */
export function useVideoSummary(host: VideoSummaryHost): (tab: ActiveTab) => void {
  const { t } = useTranslation();
  const [waiting, setWaiting] = useState<{ sawBusy: boolean } | null>(null);
  const hostRef = useRef(host);
  hostRef.current = host;

  useEffect(() => {
    if (!waiting) return;
    if (host.busy) {
      if (!waiting.sawBusy) setWaiting({ sawBusy: true });
      return;
    }
    if (!waiting.sawBusy && host.ready === 0) return;
    setWaiting(null);
    if (host.ready > 0) hostRef.current.send(t('chat.video.summarizeMessage'));
  }, [waiting, host.busy, host.ready, t]);

  return useCallback((tab: ActiveTab) => {
    hostRef.current.readTab(tab);
    setWaiting({ sawBusy: false });
  }, []);
}

/** The video the chat is about: the newest attached page that is a video's watch page, or null. */
export function chatVideoUrl(turns: readonly ChatTurn[]): string | null {
  for (let i = turns.length - 1; i >= 0; i--) {
    const video = turns[i].media?.find((m) => m.mediaType === 'html' && videoPlatformOf(m.url));
    if (video) return video.url;
  }
  return null;
}

/**
 * What a `[mm:ss]` of an answer does in a chat about a video: in the side panel, when that video is
 * the active tab, seeks its player there; otherwise opens the video at that time (&t=Ns).
 */
export function useVideoTimes(turns: readonly ChatTurn[], tabs: TabAccess | null | undefined): VideoTimes | null {
  const url = chatVideoUrl(turns);
  return useMemo(() => {
    if (!url) return null;
    const open = (seconds: number) => void window.open(videoUrlAt(url, seconds), '_blank', 'noopener,noreferrer');
    return {
      onTime: (seconds: number) => {
        if (!tabs) return open(seconds);
        tabs
          .queryActiveTab()
          .then(async (tab) => {
            if (tab?.id === undefined || !sameVideo(tab.url, url) || !(await tabs.seekTabVideo(tab.id, seconds))) open(seconds);
          })
          .catch(() => open(seconds));
      },
    };
  }, [url, tabs]);
}

/**
 * The chat's video parts: the side panel's page buttons ("Summarise this video" on a watch page, then
 * "Read this page"; null on the web page), and `provide`, which gives the answers' [mm:ss] what they do.
 */
export function useChatVideo(host: VideoSummaryHost & { has: (url: string) => boolean }, turns: readonly ChatTurn[], tabs: TabAccess | null | undefined) {
  const summarise = useVideoSummary(host);
  const times = useVideoTimes(turns, tabs);
  // The buttons about the tab beside the composer: this one's, Read this page and Translate page.
  const pageButtons = tabs ? (
    <Suspense fallback={null}>
      <PageActions tabs={tabs} has={host.has} onRead={host.readTab} onSummarise={summarise} />
    </Suspense>
  ) : null;
  return { times, pageButtons, provide: (children: ReactNode) => <VideoTimesContext.Provider value={times}>{children}</VideoTimesContext.Provider> };
}
