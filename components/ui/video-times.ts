import { createContext } from 'react';

/**
 * What a `[mm:ss]` timestamp of an answer does when clicked (shared/markdown/timestamps.ts): given by
 * a chat about a video (components/chat/video-summary.tsx). Without it timestamps stay text.
 */
export interface VideoTimes {
  onTime: (seconds: number) => void;
}

export const VideoTimesContext = createContext<VideoTimes | null>(null);
