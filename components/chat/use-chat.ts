import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { chatSessionsKey, moveSessionToTop } from '../../shared/api/chat-history.ts';
import { deleteChatMessage, getMessagesNewestFirst, MESSAGE_PAGE_SIZE, sendChatMessage, stopChatMessage } from '../../shared/api/chat.ts';
import { ApiError } from '../../shared/api/request.ts';
import type { StreamUpdate } from '../../shared/api/sse.ts';
import { ChatFinishReasons, type ChatCitation, type ChatMessageItem, type ChatToolCall, type MessageMedia } from '../../shared/contracts/chat.ts';
import { Codes } from '../../shared/contracts/envelope.ts';

/** One exchange: the user's message and the model's answer to it. */
export interface ChatTurn {
  /** The server's chatMessageId once known, else a local key. */
  key: string;
  chatMessageId?: string;
  input: string;
  output: string;
  modelName?: string;
  status: 'streaming' | 'done' | 'stopped' | 'error';
  error?: string;
  /** The media sent with the message (shown in its bubble); asking again sends them again. */
  media?: MessageMedia[];
  /** Sources the answer cites as [n] (web search). */
  citations?: ChatCitation[];
  /** Function-plugin calls made while answering, latest state of each. */
  toolCalls?: ChatToolCall[];
}

export interface SendOptions {
  aiModelId: string;
  webSearch: boolean;
  /** Completed attachments (spec §3 media items) given to the model with the message. */
  media?: MessageMedia[];
  /** The function plugins switched on (spec §3: only function plugins). */
  pluginIds?: string[];
}

export interface UseChatOptions {
  /** The chat open at /{id}; undefined for a new chat at /. */
  sessionId: string | undefined;
  /** The server created a session for the first message of a new chat (the caller moves to /{id}). */
  onSessionCreated: (chatSessionId: string) => void;
}

let localKeys = 0;

/** The citations and tool calls a stream update carries, as turn fields (the same arrays, so memoized views skip them). */
function extrasOf(update: StreamUpdate): Pick<ChatTurn, 'citations' | 'toolCalls'> {
  return { citations: update.citations, toolCalls: update.toolCalls };
}

function turnOf(message: ChatMessageItem): ChatTurn {
  const stopped = message.finishReason === ChatFinishReasons.userStopped || message.finishReason === ChatFinishReasons.clientDisconnected;
  return {
    key: message.chatMessageId,
    chatMessageId: message.chatMessageId,
    input: message.inputMessage,
    output: message.outputMessage,
    modelName: message.modelName ?? undefined,
    media: message.chatMedias,
    citations: message.citations,
    toolCalls: message.toolCalls,
    status: message.finishReason === ChatFinishReasons.error ? 'error' : stopped ? 'stopped' : 'done',
  };
}

/**
 * The turns of one chat: its history (newest page first, earlier pages on demand) and the answer
 * streaming now. Stream updates are applied at most once per animation frame, so a fast model
 * does not re-render the chat for every chunk.
 */
export function useChat({ sessionId, onSessionCreated }: UseChatOptions) {
  const queryClient = useQueryClient();
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  const [streaming, setStreaming] = useState(false);
  /** The session the turns belong to: set by the stream for a new chat before the route follows. */
  const sessionRef = useRef(sessionId);
  const active = useRef<{ controller: AbortController; key: string; chatMessageId?: string; stopped: boolean } | null>(null);
  /** Server messages known from the newest end (loaded plus sent since), to page back without gaps. */
  const known = useRef(0);
  const onCreated = useRef(onSessionCreated);
  onCreated.current = onSessionCreated;

  const patchTurn = useCallback((key: string, patch: Partial<ChatTurn>) => {
    setTurns((current) => current.map((turn) => (turn.key === key ? { ...turn, ...patch } : turn)));
  }, []);

  const loadPage = useCallback(async (id: string, page: number, signal?: AbortSignal) => {
    setLoading(true);
    setLoadError(null);
    try {
      const result = await getMessagesNewestFirst(id, page, signal);
      if (signal?.aborted) return;
      setTotal(result.total);
      setTurns((current) => {
        const seen = new Set(current.map((turn) => turn.chatMessageId));
        const earlier = result.list.filter((message) => !seen.has(message.chatMessageId)).map(turnOf);
        known.current += earlier.length;
        return [...earlier, ...current];
      });
    } catch (error) {
      if (!signal?.aborted) setLoadError(error instanceof Error ? error.message : String(error));
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }, []);

  // Opening another chat (or a new one) starts over, unless the route only caught up with the
  // session this hook's own stream created.
  useEffect(() => {
    if (sessionId !== undefined && sessionId === sessionRef.current && (turns.length > 0 || active.current)) return;
    active.current?.controller.abort();
    active.current = null;
    sessionRef.current = sessionId;
    known.current = 0;
    setTurns([]);
    setTotal(0);
    setStreaming(false);
    setLoadError(null);
    if (!sessionId) {
      setLoading(false);
      return;
    }
    const controller = new AbortController();
    void loadPage(sessionId, 1, controller.signal);
    return () => controller.abort();
    // turns is read only to tell "caught up" from "opened": it must not re-run this effect.
  }, [sessionId, loadPage]);

  // Leaving the chat page does not leave a stream running in the background.
  useEffect(() => () => active.current?.controller.abort(), []);

  const loadEarlier = useCallback(() => {
    const id = sessionRef.current;
    if (!id || loading) return;
    void loadPage(id, Math.floor(known.current / MESSAGE_PAGE_SIZE) + 1);
  }, [loadPage, loading]);

  const send = useCallback(
    async (input: string, options: SendOptions): Promise<void> => {
      if (active.current) return;
      const key = `local-${++localKeys}`;
      const controller = new AbortController();
      const run: { controller: AbortController; key: string; chatMessageId?: string; stopped: boolean } = { controller, key, stopped: false };
      active.current = run;
      setStreaming(true);
      const media = options.media ?? [];
      const chatMediaIds = media.map((m) => m.chatMediaId);
      setTurns((current) => [...current, { key, input, output: '', status: 'streaming', media }]);

      let frame: number | undefined;
      let latest: StreamUpdate | undefined;
      const flush = () => {
        frame = undefined;
        if (latest) patchTurn(key, { output: latest.text, chatMessageId: latest.ids.chatMessageId, modelName: latest.modelName, ...extrasOf(latest) });
      };
      const onUpdate = (update: StreamUpdate) => {
        latest = update;
        run.chatMessageId = update.ids.chatMessageId;
        if (!sessionRef.current) {
          // The first event of a new chat names its session: the history lists it at once.
          sessionRef.current = update.ids.chatSessionId;
          moveSessionToTop(queryClient, {
            chatSessionId: update.ids.chatSessionId,
            sessionTitle: input.slice(0, 100),
            sessionDescribe: '',
            createTime: new Date().toISOString(),
          });
          onCreated.current(update.ids.chatSessionId);
        }
        frame ??= requestAnimationFrame(flush);
      };

      try {
        const final = await sendChatMessage(
          {
            chatSessionId: sessionRef.current,
            aiModelId: options.aiModelId,
            inputMessage: input,
            chatMediaIds,
            webSearch: options.webSearch,
            pluginIds: options.pluginIds ?? [],
          },
          { signal: controller.signal, onUpdate },
        );
        if (frame !== undefined) cancelAnimationFrame(frame);
        known.current += 1;
        const stopped = final.finishReason === ChatFinishReasons.userStopped;
        patchTurn(key, {
          output: final.text,
          chatMessageId: final.ids.chatMessageId,
          modelName: final.modelName,
          ...extrasOf(final),
          status: stopped ? 'stopped' : 'done',
        });
      } catch (error) {
        if (frame !== undefined) cancelAnimationFrame(frame);
        const aborted = error instanceof ApiError && error.code === Codes.Aborted;
        if (latest) known.current += 1;
        patchTurn(key, {
          ...(latest ? { output: latest.text, chatMessageId: latest.ids.chatMessageId, modelName: latest.modelName, ...extrasOf(latest) } : {}),
          status: aborted && run.stopped ? 'stopped' : 'error',
          error: aborted && run.stopped ? undefined : error instanceof Error ? error.message : String(error),
        });
      } finally {
        if (active.current === run) {
          active.current = null;
          setStreaming(false);
        }
        // The server derives the title from the first message: the history shows its version.
        void queryClient.invalidateQueries({ queryKey: chatSessionsKey });
      }
    },
    [patchTurn, queryClient],
  );

  /** Spec: the stop button calls StopMessage (the server ends the answer, keeping its text) and aborts. */
  const stop = useCallback(async () => {
    const run = active.current;
    if (!run) return;
    run.stopped = true;
    if (run.chatMessageId) await stopChatMessage(run.chatMessageId).catch(() => undefined);
    run.controller.abort();
  }, []);

  const remove = useCallback(
    async (turn: ChatTurn) => {
      if (turn.chatMessageId) {
        await deleteChatMessage(turn.chatMessageId);
        known.current = Math.max(0, known.current - 1);
        setTotal((n) => Math.max(0, n - 1));
      }
      setTurns((current) => current.filter((t) => t.key !== turn.key));
    },
    [],
  );

  /** Asks again: the failed or unwanted answer goes, the same message (and its attachments) is sent anew. */
  const retry = useCallback(
    async (turn: ChatTurn, options: SendOptions) => {
      if (active.current) return;
      await remove(turn);
      await send(turn.input, { ...options, media: turn.media ?? [] });
    },
    [remove, send],
  );

  const loadedFromServer = turns.filter((t) => t.chatMessageId).length;
  return {
    turns,
    loading,
    loadError,
    streaming,
    hasEarlier: sessionRef.current !== undefined && loadedFromServer < total,
    loadEarlier,
    send,
    stop,
    remove,
    retry,
  };
}
