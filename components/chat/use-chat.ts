import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useStore } from 'jotai';
import { useCallback, useEffect, useRef, useState, type Dispatch, type MutableRefObject, type SetStateAction } from 'react';
import { chatSessionsKey, moveSessionToTop } from '../../shared/api/chat-history.ts';
import {
  deleteChatMessage,
  followChatAnswer,
  getMessagesNewestFirst,
  MESSAGE_PAGE_SIZE,
  sendChatMessage,
  stopChatMessage,
  switchChatVersion,
} from '../../shared/api/chat.ts';
import { cachedPointsUsed, pollBalanceAfterAnswer, stopBalancePoll } from '../../shared/api/points-balance.ts';
import { ApiError } from '../../shared/api/request.ts';
import { StreamDroppedError, type StreamUpdate } from '../../shared/api/sse.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import type { SentMessage } from '../../shared/atoms/pending-action.ts';
import { ChatFinishReasons, type AddMessageBody, type ChatCitation, type ChatMessageItem, type ChatToolCall, type MessageMedia } from '../../shared/contracts/chat.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import type { ChatSelection, MessageQuickFunction, MessageSelection } from '../../shared/contracts/quick-function.ts';

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
  /** The failure's Code (10470 Not Enough Points shows its own notice). */
  errorCode?: number;
  /** The media sent with the message (shown in its bubble); asking again sends them again. */
  media?: MessageMedia[];
  /** Sources the answer cites as [n] (web search). */
  citations?: ChatCitation[];
  /** Function-plugin calls made while answering, latest state of each. */
  toolCalls?: ChatToolCall[];
  /** The quick function the message was sent with (its bubble shows it; asking again uses it again). */
  quickFunction?: MessageQuickFunction | null;
  /** The page text sent with the message (shown as a chip in its bubble; asking again sends it again). */
  selection?: MessageSelection | null;
  /**
   * The versions of this turn (Ask again, an edited question), in the order made: their chatMessageIds;
   * a version being sent is its local key until the server names it. Absent: this one only.
   */
  versionIds?: string[];
}

export interface SendOptions {
  aiModelId: string;
  webSearch: boolean;
  /** Completed attachments (media items) given to the model with the message. */
  media?: MessageMedia[];
  /** The function plugins switched on (only function plugins). */
  pluginIds?: string[];
  /** A quick function (built-in or own) whose template frames the message; the text may then be empty. */
  quickFunction?: MessageQuickFunction | null;
  /**
   * Text selected on a page, sent as a separate part of the message; with `chatMessageId`, an earlier
   * answer attached to the question (the attachment kind "chat message", sent as `attachments`).
   */
  selection?: (ChatSelection & { chatMessageId?: string }) | null;
  /** The message left already (the side panel's first script sent a tool's): its answer is shown, nothing is sent again. */
  sent?: SentMessage;
}

export interface UseChatOptions {
  /** The chat open at /{id}; undefined for a new chat at /. */
  sessionId: string | undefined;
  /** The server created a session for the first message of a new chat (the caller moves to /{id}). */
  onSessionCreated: (chatSessionId: string) => void;
  /** A message the chat was opened at (?message=<id>): when it is on another branch, that branch is shown. */
  focusMessageId?: string;
}

let localKeys = 0;
const LOCAL_KEY = 'local-';
const isLocalKey = (id: string) => id.startsWith(LOCAL_KEY);

/** The versions of a turn: its versionIds, or itself alone. */
export function versionsOf(turn: ChatTurn): string[] {
  return turn.versionIds?.length ? turn.versionIds : [turn.chatMessageId ?? turn.key];
}

/** Which of its turn's versions a turn is (from 1). */
export const versionIndexOf = (turn: ChatTurn) => versionsOf(turn).indexOf(turn.chatMessageId ?? turn.key) + 1;

/** An exchange the server knows of this turn or its versions: what a new version of the turn names (versionOf). */
const versionTarget = (turn: ChatTurn): string | undefined => turn.chatMessageId ?? versionsOf(turn).find((id) => !isLocalKey(id));

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
    quickFunction: message.quickFunction,
    selection: message.selection,
    versionIds: message.versionIds?.length ? message.versionIds : [message.chatMessageId],
    // Still being written (on another surface, or by a request that went away): followed live (useFollowUnfinished).
    status: message.finishReason === null ? 'streaming' : message.finishReason === ChatFinishReasons.error ? 'error' : stopped ? 'stopped' : 'done',
  };
}

type ActiveRun = { controller: AbortController; key: string; chatMessageId?: string; stopped: boolean };

/** What the parts of useChat share: the turns, the session they belong to, the run streaming now. */
type ChatCore = {
  turns: ChatTurn[];
  setTurns: Dispatch<SetStateAction<ChatTurn[]>>;
  patchTurn: (key: string, patch: Partial<ChatTurn>) => void;
  total: number;
  setTotal: Dispatch<SetStateAction<number>>;
  streaming: boolean;
  setStreaming: Dispatch<SetStateAction<boolean>>;
  /** The session the turns belong to: set by the stream for a new chat before the route follows. */
  sessionRef: MutableRefObject<string | undefined>;
  active: MutableRefObject<ActiveRun | null>;
  /** Server messages known from the newest end (loaded plus sent since), to page back without gaps. */
  known: MutableRefObject<number>;
};

function useChatCore(sessionId: string | undefined): ChatCore {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [total, setTotal] = useState(0);
  const [streaming, setStreaming] = useState(false);
  const sessionRef = useRef(sessionId);
  const active = useRef<ActiveRun | null>(null);
  const known = useRef(0);
  const patchTurn = useCallback((key: string, patch: Partial<ChatTurn>) => {
    setTurns((current) => current.map((turn) => (turn.key === key ? { ...turn, ...patch } : turn)));
  }, []);
  return { turns, setTurns, patchTurn, total, setTotal, streaming, setStreaming, sessionRef, active, known };
}

/** The history of the chat open at `sessionId`: its newest page when opened, earlier pages on demand. */
function useChatHistory(core: ChatCore, sessionId: string | undefined) {
  const { setTurns, setTotal, setStreaming, sessionRef, active, known } = core;
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  /** The chat whose newest page has been shown since it was opened. */
  const [openedFor, setOpenedFor] = useState<string | undefined>(undefined);

  const loadPage = useCallback(
    async (id: string, page: number, signal?: AbortSignal) => {
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
    },
    [setTotal, setTurns, known],
  );

  // Opening another chat (or a new one) starts over, unless the route only caught up with the
  // session this hook's own stream created.
  const turnsCount = core.turns.length;
  useEffect(() => {
    if (sessionId !== undefined && sessionId === sessionRef.current && (turnsCount > 0 || active.current)) return;
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
    void loadPage(sessionId, 1, controller.signal).then(() => {
      if (!controller.signal.aborted) setOpenedFor(sessionId);
    });
    return () => controller.abort();
    // The turn count is read only to tell "caught up" from "opened": it must not re-run this effect.
  }, [sessionId, loadPage]);

  // Leaving the chat page does not leave a stream running in the background.
  useEffect(() => () => active.current?.controller.abort(), [active]);

  const loadEarlier = useCallback(() => {
    const id = sessionRef.current;
    if (!id || loading) return;
    void loadPage(id, Math.floor(known.current / MESSAGE_PAGE_SIZE) + 1);
  }, [loadPage, loading, sessionRef, known]);

  return { loading, loadError, loadEarlier, openedFor };
}

/** The fields of a turn a stream update (or its end) sets. */
const streamedFields = (update: StreamUpdate): Partial<ChatTurn> => ({
  output: update.text,
  chatMessageId: update.ids.chatMessageId,
  modelName: update.modelName,
  ...extrasOf(update),
});

/**
 * A stream's updates applied to the turn `key` at most once per animation frame. `settle` cancels the
 * frame pending and applies the last update with the turn's end (`patch` wins over it).
 */
function frameBatched(patchTurn: ChatCore['patchTurn'], key: string) {
  let frame: number | undefined;
  let latest: StreamUpdate | undefined;
  const flush = () => {
    frame = undefined;
    if (latest) patchTurn(key, streamedFields(latest));
  };
  return {
    latest: () => latest,
    onUpdate: (update: StreamUpdate) => {
      latest = update;
      frame ??= requestAnimationFrame(flush);
    },
    settle: (patch: Partial<ChatTurn>) => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
      patchTurn(key, { ...(latest ? streamedFields(latest) : {}), ...patch });
    },
  };
}

/** How an answer streamed to its end (sent here, or followed) ended, as its turn shows it. */
function endedStatus(update: StreamUpdate): ChatTurn['status'] {
  if (update.finishReason === ChatFinishReasons.userStopped || update.finishReason === ChatFinishReasons.clientDisconnected) return 'stopped';
  return update.finishReason === ChatFinishReasons.error || update.finishReason === ChatFinishReasons.interrupted ? 'error' : 'done';
}

/** The end of a turn whose stream failed: stopped when the user stopped it, else the failure and its Code. */
function failedFields(error: unknown, stoppedByUser: boolean): Partial<ChatTurn> {
  if (stoppedByUser) return { status: 'stopped', error: undefined, errorCode: undefined };
  return { status: 'error', error: error instanceof Error ? error.message : String(error), errorCode: error instanceof ApiError ? error.code : undefined };
}

/**
 * Sends one message and streams its answer into the turn `run.key`, applying updates at most once
 * per animation frame. The first event of a new chat names its session: the history lists it at
 * once and `onCreated` moves the route to it. Resolves true when the answer started (its points
 * were charged), false when the message was refused before it.
 */
async function streamTurn(
  core: ChatCore,
  run: ActiveRun,
  input: string,
  options: SendOptions & { versionOf?: string },
  hooks: { queryClient: QueryClient; onCreated: (chatSessionId: string) => void },
): Promise<boolean> {
  const { sessionRef, known } = core;
  const batch = frameBatched(core.patchTurn, run.key);
  const onUpdate = (update: StreamUpdate) => {
    if (!run.chatMessageId) {
      // Named by the server: a new version takes that name among its turn's versions.
      const id = update.ids.chatMessageId;
      core.setTurns((current) => current.map((t) => (t.key === run.key && t.versionIds ? { ...t, versionIds: t.versionIds.map((v) => (v === run.key ? id : v)) } : t)));
    }
    run.chatMessageId = update.ids.chatMessageId;
    if (!sessionRef.current) {
      sessionRef.current = update.ids.chatSessionId;
      moveSessionToTop(hooks.queryClient, {
        chatSessionId: update.ids.chatSessionId,
        sessionTitle: input.slice(0, 100),
        sessionDescribe: '',
        createTime: new Date().toISOString(),
        answering: true,
      });
      hooks.onCreated(update.ids.chatSessionId);
    }
    batch.onUpdate(update);
  };
  const body = {
    chatSessionId: sessionRef.current,
    aiModelId: options.aiModelId,
    inputMessage: input,
    chatMediaIds: (options.media ?? []).map((m) => m.chatMediaId),
    webSearch: options.webSearch,
    pluginIds: options.pluginIds ?? [],
    ...(options.quickFunction ? { quickFunctionId: options.quickFunction.quickFunctionId } : {}),
    ...(options.selection?.chatMessageId
      ? { attachments: [{ kind: 'chatMessage' as const, chatMessageId: options.selection.chatMessageId }] }
      : options.selection
        ? { selection: { text: options.selection.text, title: options.selection.title, url: options.selection.url } }
        : {}),
    ...(options.versionOf ? { versionOf: options.versionOf } : {}),
  } satisfies AddMessageBody;
  // The answer started: one more exchange on the branch shown.
  const counted = () => {
    known.current += 1;
    core.setTotal((n) => n + 1);
  };
  try {
    const signal = run.controller.signal;
    const final = await sendChatMessage(body, { signal, onUpdate, sent: options.sent }).catch((error: unknown) => {
      // The connection dropped mid-answer: the answer runs on at the server; follow it from the text received.
      const latest = batch.latest();
      if (!(error instanceof StreamDroppedError) || !latest || run.stopped) throw error;
      return followChatAnswer(latest.ids.chatMessageId, latest.text, { signal, onUpdate });
    });
    counted();
    batch.settle({ ...streamedFields(final), status: endedStatus(final) });
    return true;
  } catch (error) {
    const started = batch.latest() !== undefined;
    if (started) counted();
    batch.settle(failedFields(error, error instanceof ApiError && error.code === Codes.Aborted && run.stopped));
    return started;
  }
}

/**
 * A chat opened while its last answer is still being written (on another surface, or for a request
 * that went away) shows it continuing live: followed with ResumeMessage from the text loaded, as the
 * run streaming now, so the stop button stops it. Updates are applied at most once per frame.
 */
function useFollowUnfinished(core: ChatCore) {
  const { turns, active, patchTurn, setStreaming } = core;
  const queryClient = useQueryClient();
  const last = turns.at(-1);
  const unfinished = last?.status === 'streaming' && last.chatMessageId && !active.current ? last : undefined;
  const turnRef = useRef(unfinished);
  turnRef.current = unfinished;
  const id = unfinished?.chatMessageId;
  useEffect(() => {
    const turn = turnRef.current;
    if (!id || !turn || active.current) return;
    const run: ActiveRun = { controller: new AbortController(), key: turn.key, chatMessageId: id, stopped: false };
    active.current = run;
    setStreaming(true);
    const batch = frameBatched(patchTurn, run.key);
    followChatAnswer(id, turn.output, { signal: run.controller.signal, onUpdate: batch.onUpdate })
      .then(
        (final) => batch.settle({ ...streamedFields(final), status: endedStatus(final) }),
        (error: unknown) => {
          // Leaving the chat aborts quietly; the stop button ends the answer as stopped.
          if (run.controller.signal.aborted && !run.stopped) return;
          batch.settle(failedFields(error, run.stopped));
        },
      )
      .finally(() => {
        // The history's in-progress mark goes.
        void queryClient.invalidateQueries({ queryKey: chatSessionsKey });
        if (active.current !== run) return;
        active.current = null;
        setStreaming(false);
      });
  }, [id, active, patchTurn, setStreaming, queryClient]);
}

/** Sending (one message at a time) and stopping the answer streaming now. */
function useSending(core: ChatCore, onSessionCreated: (chatSessionId: string) => void) {
  const queryClient = useQueryClient();
  const store = useStore();
  const onCreated = useRef(onSessionCreated);
  onCreated.current = onSessionCreated;
  const { active, setTurns, setStreaming } = core;
  const coreRef = useRef(core);
  coreRef.current = core;

  /**
   * Sends `input`. With `version` (a turn of the chat the server knows, or a version of one), the message
   * is a new version of that turn: the turns from it on leave the view (they stay on their branch) and
   * the new one takes its place, listed after that turn's versions.
   */
  const send = useCallback(
    async (input: string, options: SendOptions, version?: ChatTurn): Promise<void> => {
      if (active.current) return;
      const run: ActiveRun = { controller: new AbortController(), key: `${LOCAL_KEY}${++localKeys}`, stopped: false };
      active.current = run;
      setStreaming(true);
      const { quickFunction = null } = options;
      const selection: MessageSelection | null = options.selection
        ? { text: options.selection.text, title: options.selection.title ?? '', url: options.selection.url ?? '', ...(options.selection.chatMessageId ? { chatMessageId: options.selection.chatMessageId } : {}) }
        : null;
      const turn: ChatTurn = { key: run.key, input, output: '', status: 'streaming', media: options.media ?? [], quickFunction, selection };
      const versionOf = version && versionTarget(version);
      const current = coreRef.current.turns;
      const at = version && versionOf ? current.findIndex((t) => t.key === version.key) : -1;
      if (version && at >= 0) {
        const dropped = current.slice(at).filter((t) => t.chatMessageId).length;
        coreRef.current.known.current = Math.max(0, coreRef.current.known.current - dropped);
        coreRef.current.setTotal((n) => Math.max(0, n - dropped));
        setTurns([...current.slice(0, at), { ...turn, versionIds: [...versionsOf(version).filter((id) => !isLocalKey(id)), run.key] }]);
      } else {
        setTurns((turns) => [...turns.filter((t) => t.key !== version?.key), turn]);
      }
      // The points spent before this message: the balance poll after its answer waits for a change from them.
      const token = store.get(tokenAtom);
      stopBalancePoll();
      const usedBefore = cachedPointsUsed(queryClient, token);
      let charged = false;
      try {
        charged = await streamTurn(coreRef.current, run, input, { ...options, versionOf }, { queryClient, onCreated: (id) => onCreated.current(id) });
      } finally {
        if (charged) pollBalanceAfterAnswer(queryClient, token, usedBefore);
        if (active.current === run) {
          active.current = null;
          setStreaming(false);
        }
        // The server derives the title from the first message: the history shows its version.
        void queryClient.invalidateQueries({ queryKey: chatSessionsKey });
      }
    },
    [active, queryClient, setStreaming, setTurns, store],
  );

  /** The stop button calls StopMessage (the server ends the answer, keeping its text) and aborts. */
  const stop = useCallback(async () => {
    const run = active.current;
    if (!run) return;
    run.stopped = true;
    if (run.chatMessageId) await stopChatMessage(run.chatMessageId).catch(() => undefined);
    run.controller.abort();
  }, [active]);

  return { send, stop };
}

/**
 * The turns of one chat: its history (newest page first, earlier pages on demand) and the answer
 * streaming now. Stream updates are applied at most once per animation frame, so a fast model
 * does not re-render the chat for every chunk.
 */
export function useChat({ sessionId, onSessionCreated, focusMessageId }: UseChatOptions) {
  const core = useChatCore(sessionId);
  const { loading, loadError, loadEarlier, openedFor } = useChatHistory(core, sessionId);
  useFollowUnfinished(core);
  const { send, stop } = useSending(core, onSessionCreated);
  const { showBranch, remove } = useVersions(core);
  const { active } = core;
  useOpenAtMessage(core, { focusMessageId, opened: openedFor === sessionId && !loading, showBranch });

  /**
   * A sent question edited: the new text is sent as a new version of its turn, with what the turn
   * carried (attachments, selection, quick function); what followed the old question stays on its branch.
   */
  const edit = useCallback(
    async (turn: ChatTurn, input: string, options: SendOptions) => {
      if (active.current) return;
      await send(input, { ...options, media: turn.media ?? [], quickFunction: turn.quickFunction, selection: turn.selection }, turn);
    },
    [active, send],
  );

  /**
   * Asks again: the same message is sent as a new version of its turn; the earlier answer stays, one
   * arrow away. A message refused before it was stored (nothing to make a version of) is sent anew.
   */
  const retry = useCallback((turn: ChatTurn, options: SendOptions) => edit(turn, turn.input, options), [edit]);

  /** The arrows under an answer: the chat shows version `chatMessageId` of `turn`'s turn, and its branch below. */
  const switchVersion = useCallback((turn: ChatTurn, chatMessageId: string) => showBranch(chatMessageId, turn), [showBranch]);

  const loadedFromServer = core.turns.filter((t) => t.chatMessageId).length;
  return {
    turns: core.turns,
    loading,
    loadError,
    streaming: core.streaming,
    hasEarlier: core.sessionRef.current !== undefined && loadedFromServer < core.total,
    loadEarlier,
    send,
    stop,
    remove,
    retry,
    edit,
    switchVersion,
  };
}

/**
 * Showing another branch of the chat (SwitchVersion), and deleting a turn: the server then shows what
 * it keeps in that turn's place. `showBranch(id, from)`: the chat shows the branch through exchange
 * `id`; the turns from `from` on give way to it (none given: all of them).
 */
function useVersions(core: ChatCore) {
  const { active, known, sessionRef, setTotal, setTurns } = core;
  const coreRef = useRef(core);
  coreRef.current = core;
  const shown = useRef(0);

  const showBranch = useCallback(
    async (chatMessageId: string, from?: ChatTurn) => {
      const sessionId = sessionRef.current;
      if (!sessionId || active.current) return;
      const request = ++shown.current;
      const result = await switchChatVersion(sessionId, chatMessageId);
      // A later switch, another chat or a message sent meanwhile wins.
      if (request !== shown.current || sessionRef.current !== sessionId || active.current) return;
      const current = coreRef.current.turns;
      const at = from ? current.findIndex((t) => t.key === from.key) : -1;
      const fresh = result.list.map(turnOf);
      const next = at >= 0 && fresh[0]?.chatMessageId === chatMessageId ? [...current.slice(0, at), ...fresh] : fresh;
      known.current = next.filter((t) => t.chatMessageId).length;
      setTotal(result.total);
      setTurns(next);
    },
    [active, known, sessionRef, setTotal, setTurns],
  );

  /**
   * Deletes a turn's exchange; the turns after it stay. When the turn had other versions, the server
   * shows one of them (or what followed it joins them): that part of the chat is shown as it is now.
   */
  const remove = useCallback(
    async (turn: ChatTurn) => {
      if (turn.chatMessageId) {
        await deleteChatMessage(turn.chatMessageId);
        const others = versionsOf(turn).filter((id) => id !== turn.chatMessageId && !isLocalKey(id));
        const current = coreRef.current.turns;
        const below = current[current.findIndex((t) => t.key === turn.key) + 1]?.chatMessageId;
        if (others.length > 0) return showBranch(below ?? others.at(-1)!, turn);
        known.current = Math.max(0, known.current - 1);
        setTotal((n) => Math.max(0, n - 1));
      }
      setTurns((current) => current.filter((t) => t.key !== turn.key));
    },
    [known, setTotal, setTurns, showBranch],
  );

  return { showBranch, remove };
}

/**
 * A chat opened at one of its messages (?message=<id>: a search hit, a saved answer's source) that is
 * not among the turns shown: on another branch, or far back. The chat shows the branch through it,
 * from it down (SwitchVersion changes nothing when it is on the branch shown already). Once per message.
 */
function useOpenAtMessage(core: ChatCore, o: { focusMessageId: string | undefined; opened: boolean; showBranch: (id: string) => Promise<void> }) {
  const { focusMessageId, opened, showBranch } = o;
  const tried = useRef<string | undefined>(undefined);
  const found = core.turns.some((t) => t.chatMessageId === focusMessageId);
  useEffect(() => {
    if (!focusMessageId || !opened || tried.current === focusMessageId) return;
    tried.current = focusMessageId;
    if (!found) void showBranch(focusMessageId).catch(() => undefined);
  }, [focusMessageId, opened, found, showBranch]);
}
