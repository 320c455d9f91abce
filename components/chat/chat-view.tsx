import './chat.css';
import { Alert, Button, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import i18next from 'i18next';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { modelListQuery } from '../../shared/api/chat.ts';
import { ServerUnreachableError } from '../../shared/api/request.ts';
import { isLoggedInAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { chatModelAtom, webSearchAtom } from '../../shared/atoms/chat.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import type { ModelListItem } from '../../shared/contracts/model.ts';
import type { MessageQuickFunction } from '../../shared/contracts/quick-function.ts';
import type { TabAccess } from '../../shared/platform/platform.ts';
import { resolveModel } from '../../shared/utils/default-model.ts';
import { usePlatform } from '../app-shell/platform-context.tsx';
import { ServerUnreachableNotice } from '../app-shell/server-unreachable-notice.ts';
import { useSystemSetting } from '../app-shell/system-settings.ts';
import { notifyError } from '../ui/notify.ts';
import { useAttachActions } from './attach-actions.ts';
import { TranslatePageButton } from './translate-page-button.tsx';
import { AttachFileButton, AttachmentChips, AttachPageButton, ReadThisPageButton, ScreenshotButton } from './attachments.tsx';
import { ChatAddonsContext, type ChatAddons } from './chat-addons.ts';
import { Composer, type ComposerMenuProps } from './composer.tsx';
import { ChatDropOverlay } from './link-drop.tsx';
import { preloadMarkdownView } from './message-item.tsx';
import { MessageList } from './message-list.tsx';
import { modelName } from './model-name.ts';
import { ModelPicker, useLockedModelPrompt } from './model-picker.tsx';
import { useModelSwitch } from './model-switch.tsx';
import type { ChatTool } from './quick-function-icon.tsx';
import { chatToolLabel, ChosenToolChip, QuickFunctionStarters, SlashMenuSlot, useChatQuickFunctions } from './quick-functions.tsx';
import { parsePageUrl, useAttachments } from './use-attachments.ts';
import { usePendingChatAction } from './pending-action.tsx';
import { useQuotedAnswer } from './quoted-answer.tsx';
import { useChat, type ChatTurn, type SendOptions } from './use-chat.ts';
import { PluginPicker } from './plugin-picker.tsx';
import { useChatPlugins } from './use-plugins.ts';

export interface ChatViewProps {
  /** The chat at /{id}; undefined at / (a new chat). */
  sessionId: string | undefined;
  /** The first answer of a new chat names its session: the caller moves the route to /{id}. */
  onSessionCreated: (chatSessionId: string) => void;
  /** What other features show in the chat (the layout composes them). */
  addons?: ChatAddons;
  /** A message to scroll to and mark once loaded (a link to it: ?message=<chatMessageId>). */
  focusMessageId?: string;
}

const NO_ADDONS: ChatAddons = {};

/** A retry or delete that the server refused: its message (localized by the server) is shown. */
function reportFailure(error: unknown): void {
  notifyError(error instanceof Error && error.message ? error.message : i18next.t('chat.message.actionFailed'));
}

/** Why the web-search toggle is off for this model and server, or null when it may be on. */
function whyNoWebSearch(model: ModelListItem | undefined, searchProvider: string | undefined): string | null {
  if (!model) return i18next.t('chat.composer.webSearchNoModel');
  if (!model.webSearch) return i18next.t('chat.composer.webSearchUnsupported', { model: modelName(model, i18next.t) });
  return searchProvider ? null : i18next.t('chat.composer.webSearchNotConfigured');
}

/** The model a message with `tool` goes to: the tool's preferred one when the user may use it, else `fallback`. */
export function toolModelId(models: readonly ModelListItem[], tool: ChatTool | null, fallback: string): string {
  const preferred = tool?.aiModelId ? models.find((m) => m.aiModelId === tool.aiModelId && !m.locked) : undefined;
  return preferred?.aiModelId ?? fallback;
}

/**
 * Picking a quick function (a starter or the "/" menu): it is chosen for the next message, the text
 * box takes the focus, and in the side panel a tool that works on the page attaches the tab's page
 * (as "read this page" does) unless it is attached already.
 */
function useToolPick(choose: (tool: ChatTool) => void, input: RefObject<HTMLTextAreaElement | null>, tabs: TabAccess | null | undefined, has: (url: string) => boolean, readTab: ReturnType<typeof useAttachActions>['readTab']) {
  return useCallback(
    (tool: ChatTool) => {
      choose(tool);
      input.current?.focus();
      if (!tabs || !tool.appliesTo.includes('page')) return;
      tabs.queryActiveTab().then(
        (tab) => {
          const url = tab && parsePageUrl(tab.url);
          if (tab && !(url && has(url))) readTab(tab);
        },
        () => undefined,
      );
    },
    [choose, input, tabs, has, readTab],
  );
}

/**
 * The quick functions' parts of the chat: the tools and the chosen one, the text box's ref, the
 * starters, the chosen tool's chip, and what the composer takes for them. `take` gives what a message
 * sends of the chosen tool and clears the choice.
 */
function useChatTools(tabs: TabAccess | null | undefined, attachments: ReturnType<typeof useAttachments>, attach: ReturnType<typeof useAttachActions>) {
  const { t } = useTranslation();
  const quick = useChatQuickFunctions(!!tabs);
  const input = useRef<HTMLTextAreaElement>(null);
  const pick = useToolPick(quick.choose, input, tabs, attachments.has, attach.readTab);
  const { chosen, choose, tools } = quick;
  return {
    quick,
    input,
    take: (): MessageQuickFunction | null => {
      choose(null);
      return chosen && { quickFunctionId: chosen.quickFunctionId, name: chatToolLabel(chosen), icon: chosen.icon };
    },
    starters: <QuickFunctionStarters tools={tools} onPick={pick} />,
    chip: chosen && <ChosenToolChip tool={chosen} onRemove={() => choose(null)} />,
    composer: {
      commandMenu: (menu: ComposerMenuProps) => <SlashMenuSlot {...menu} tools={tools} onPick={pick} />,
      allowEmpty: chosen ? t('chat.quickFunctions.toolPlaceholder') : null,
      textareaRef: input,
    },
  };
}

/** The composer's attach buttons: a file, a web page, and in the side panel a screenshot of the tab for a model that sees images. */
function AttachTools({ tabs, model, attach }: { tabs: TabAccess | null | undefined; model: ModelListItem | undefined; attach: ReturnType<typeof useAttachActions> }) {
  return (
    <>
      <AttachFileButton accepted={attach.accepted} unavailable={attach.fileUnavailable} canOpen={attach.canUpload} onFile={attach.addFile} />
      <AttachPageButton onAdd={attach.addPage} />
      {tabs && model?.modelMap.isImage && <ScreenshotButton tabs={tabs} canCapture={attach.canUpload} onFile={attach.addFile} />}
    </>
  );
}

/** What an empty chat shows: a welcome, and for a visitor the way to sign in (for a user, the addons' welcome); then the quick-function starters. */
function ChatWelcome({ loggedIn, onSignIn, extra, starters }: { loggedIn: boolean; onSignIn: () => void; extra?: ReactNode; starters?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="chat-welcome">
      <Title order={3} fw={600} mb={6}>
        {t('chat.welcome.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {loggedIn ? t('chat.welcome.subtitle') : t('chat.welcome.visitor')}
      </Text>
      {!loggedIn && (
        <Button mt="md" onClick={onSignIn}>
          {t('chat.welcome.signIn')}
        </Button>
      )}
      {loggedIn && extra}
      {starters}
    </div>
  );
}

/** What the chat may show later (answers' markdown, the unreachable-server notice), fetched once the first screen is up. */
function preloadAfterFirstScreen() {
  preloadMarkdownView();
  void ServerUnreachableNotice.preload();
}

/** The model list could not be loaded, or none of its models is open to this user. */
function ModelListAlert({ error, noneUsable }: { error: unknown; noneUsable: boolean }) {
  const { t } = useTranslation();
  if (error instanceof ServerUnreachableError) return <ServerUnreachableNotice.Component error={error} />;
  if (error) {
    return (
      <Alert color="red" variant="light" p={8} mb={8}>
        {error instanceof Error ? error.message : t('request.failed')}
      </Alert>
    );
  }
  return noneUsable ? (
    <Alert color="yellow" variant="light" p={8} mb={8}>
      {t('chat.model.noneUsable')}
    </Alert>
  ) : null;
}

/**
 * What the turns' actions do: Ask again, delete, an edited question (both sent with the options the
 * composer has now) and the version arrows. Stable across renders, as the memoized turns need.
 */
function useTurnActions(chat: ReturnType<typeof useChat>, options: SendOptions) {
  const { retry, remove, edit, switchVersion } = chat;
  const current = useRef(options);
  current.current = options;
  return {
    onRetry: useCallback((turn: ChatTurn) => void retry(turn, current.current).catch(reportFailure), [retry]),
    onDelete: useCallback((turn: ChatTurn) => void remove(turn).catch(reportFailure), [remove]),
    onEdit: useCallback((turn: ChatTurn, text: string) => void edit(turn, text, current.current).catch(reportFailure), [edit]),
    onSwitchVersion: useCallback((turn: ChatTurn, id: string) => void switchVersion(turn, id).catch(reportFailure), [switchVersion]),
  };
}

/** A chat: its messages, the model picker and the composer. */
export function ChatView({ sessionId, onSessionCreated, addons = NO_ADDONS, focusMessageId }: ChatViewProps) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const openLogin = useSetAtom(openLoginDialogAtom);
  const [chosenModel, setChosenModel] = useAtom(chatModelAtom);
  const [webSearch, setWebSearch] = useAtom(webSearchAtom);
  const planLevel = useAtomValue(userInfoAtom)?.vipOrder?.vipPackageLevel ?? 0;
  const models = useQuery(modelListQuery(loggedIn, planLevel));
  const searchProvider = useSystemSetting('web_search_provider').value;
  const chat = useChat({ sessionId, onSessionCreated, focusMessageId });
  const { visible: pluginPickerVisible, ...plugins } = useChatPlugins();
  const { tabs } = usePlatform();
  useEffect(preloadAfterFirstScreen, []);

  const list = models.data ?? [];
  const model = resolveModel(list, chosenModel);
  const attachments = useAttachments(model);
  const modelSwitch = useModelSwitch(attachments, (m) => void setChosenModel(m.aiModelId));
  const attach = useAttachActions(attachments, model, { models: list, switchTo: modelSwitch.request });
  const lockedModel = useLockedModelPrompt(addons);
  const webSearchUnavailable = whyNoWebSearch(model, searchProvider);
  const options = { aiModelId: model?.aiModelId ?? '', webSearch: webSearch && webSearchUnavailable === null, pluginIds: plugins.enabledIds };
  const { quick, input, ...toolUi } = useChatTools(tabs, attachments, attach);

  // What the page sent (selection toolbar, context menu, shortcut: pending-action.tsx) runs through send below.
  const pending = usePendingChatAction({
    sessionId,
    loggedIn,
    model,
    models: list,
    busy: attachments.busy,
    streaming: chat.streaming,
    ready: attachments.completed.length,
    send: (text, extra) => send(text, extra),
    readTab: attach.readTab,
    addFile: attach.addFile,
    chooseModel: (id) => void setChosenModel(id),
    openLogin: () => openLogin('chat.notLoginTip'),
    focusInput: () => input.current?.focus(),
  });
  const quotedAnswer = useQuotedAnswer(pending.clearSelection, input);

  const send = (text: string, extra: Pick<SendOptions, 'quickFunction' | 'selection' | 'sent'> = {}) => {
    // Sent already, by the side panel before this view existed: its answer is shown, whatever has loaded since.
    if (extra.sent) return void chat.send(text, { ...options, ...extra });
    if (!loggedIn) return void openLogin('chat.notLoginTip');
    if (!model || attachments.busy) return;
    // Attachments that failed are not sent; the message carries the ones uploaded, and the chips go with it.
    const aiModelId = toolModelId(list, quick.chosen, options.aiModelId);
    const quickFunction = extra.quickFunction ?? toolUi.take();
    // The page's text, else an earlier answer (taken from the composer as it is sent).
    const selection = extra.selection ?? pending.selection ?? quotedAnswer.take();
    void chat.send(text, { ...options, aiModelId, media: attachments.completed, quickFunction, selection });
    attachments.clear();
    pending.clearSelection();
  };

  const { onRetry, onDelete, onEdit, onSwitchVersion } = useTurnActions(chat, options);

  return (
    <ChatAddonsContext.Provider value={addons}>
      <div className="chat-view" {...attach.drop.handlers}>
        {attach.drop.dragging && <ChatDropOverlay kind={attach.drop.dragging} />}
        <MessageList
          turns={chat.turns}
          streaming={chat.streaming}
          hasEarlier={chat.hasEarlier}
          loading={chat.loading}
          loadError={chat.loadError}
          onLoadEarlier={chat.loadEarlier}
          onRetry={onRetry}
          onDelete={onDelete}
          onEdit={onEdit}
          onSwitchVersion={onSwitchVersion}
          onQuote={quotedAnswer.quote}
          focusMessageId={focusMessageId}
          empty={<ChatWelcome loggedIn={loggedIn} onSignIn={() => openLogin()} extra={addons.welcome} starters={toolUi.starters} />}
        />
        <div className="chat-footer">
          <ModelListAlert error={models.isError ? models.error : null} noneUsable={models.isSuccess && list.length > 0 && !model} />
          {tabs && <div className="page-actions">{[<ReadThisPageButton key="read" tabs={tabs} has={attachments.has} onRead={attach.readTab} />, <TranslatePageButton key="translate" tabs={tabs} />]}</div>}
          <Composer
            streaming={chat.streaming}
            onSend={send}
            onStop={() => void chat.stop()}
            webSearch={webSearch}
            onWebSearchChange={(on) => void setWebSearch(on)}
            webSearchUnavailable={webSearchUnavailable}
            disabled={loggedIn && !model}
            sendBlocked={attachments.busy ? t('chat.content.attachmentsLoading') : null}
            sendCost={loggedIn ? addons.sendCost?.(model, list) : null}
            attachments={
              <>
                {pending.chip}
                {quotedAnswer.chip}
                {toolUi.chip}
                <AttachmentChips items={attachments.items} onRetry={attachments.retry} onRemove={attachments.remove} />
              </>
            }
            {...toolUi.composer}
            onPasteFiles={attach.pasteFiles}
            tools={<AttachTools tabs={tabs} model={model} attach={attach} />}
            plugins={pluginPickerVisible && <PluginPicker {...plugins} />}
            modelPicker={
              <ModelPicker
                models={list}
                selected={model}
                onSelect={modelSwitch.request}
                onLockedSelect={lockedModel.onLockedSelect}
                disabled={chat.streaming}
              />
            }
          />
        </div>
        {modelSwitch.dialog}
        {lockedModel.prompt}
      </div>
    </ChatAddonsContext.Provider>
  );
}

