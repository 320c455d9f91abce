import { useAtomValue, useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedInAtom } from '../../shared/atoms/auth.ts';
import { openLoginDialogAtom } from '../../shared/atoms/login-dialog.ts';
import { acceptedExtensions } from '../../shared/contracts/media.ts';
import type { ModelListItem } from '../../shared/contracts/model.ts';
import type { ActiveTab } from '../../shared/platform/platform.ts';
import { notifyError } from '../ui/notify.ts';
import { notifyWithAction } from '../ui/notify-with-action.tsx';
import type { AddFile, AddPage } from './attachments.tsx';
import { useChatDrop } from './link-drop.tsx';
import { fileNameOf, modelAccepts, type useAttachments } from './use-attachments.ts';
import { modelName } from './model-name.ts';

type Attachments = ReturnType<typeof useAttachments>;

/** The models the user may switch to, and the switch (which asks first when attachments would be lost). */
type OtherModels = { models: readonly ModelListItem[]; switchTo: (model: ModelListItem) => void };

/**
 * Adds a file; one the current model cannot read, but another open model can (an image on a model
 * that reads only text), is refused with that model offered: taking it switches and attaches the
 * file there. Answers a refusal for the caller to tell, or null when added or already told.
 */
function useFileOrOtherModel(addFile: AddFile, model: ModelListItem | undefined, otherModels: OtherModels): AddFile {
  const { t } = useTranslation();
  // The latest list and switch, read when a file comes: the callback stays the same between streamed frames.
  const others = useRef(otherModels);
  others.current = otherModels;
  /** The file waiting for the switch to the model offered for it. */
  const waiting = useRef<{ file: File; from: string; to: string } | null>(null);
  useEffect(() => {
    const pending = waiting.current;
    if (!pending || !model || model.aiModelId === pending.from) return;
    waiting.current = null;
    // A switch to another model than the one offered (after a cancelled switch) drops the file.
    if (model.aiModelId !== pending.to) return;
    const refused = addFile(pending.file);
    if (refused) notifyError(refused);
  }, [model, addFile]);

  return useCallback<AddFile>(
    (file) => {
      const refused = addFile(file);
      // Checked by its extension, as the upload checks it ('file' covers images among a model's types).
      const asFile = { type: 'file', name: fileNameOf(file) } as const;
      if (refused === null || !model || modelAccepts(model.modelMap, asFile)) return refused;
      const { models, switchTo } = others.current;
      const other = models.find((m) => !m.locked && m.aiModelId !== model.aiModelId && modelAccepts(m.modelMap, asFile));
      if (!other) return refused;
      notifyWithAction('error', refused, {
        label: t('chat.content.useModel', { model: other.name }),
        onClick: () => {
          waiting.current = { file, from: model.aiModelId, to: other.aiModelId };
          switchTo(other);
        },
      });
      return null;
    },
    [addFile, model, t],
  );
}

/**
 * Every way of attaching something to the message being written, as the composer's controls use
 * them: typed or dropped addresses, picked, dropped or pasted files, the side panel's tab and its
 * screenshot. Uploads are the signed-in user's (the upload calls need a login): a visitor is asked
 * to sign in instead. A refusal nothing else shows (a drop, a paste) is told in a notification.
 * The callbacks are stable between streamed frames, so the memoized controls skip them.
 */
export function useAttachActions(attachments: Attachments, model: ModelListItem | undefined, otherModels: OtherModels) {
  const { t } = useTranslation();
  const loggedIn = useAtomValue(isLoggedInAtom);
  const openLogin = useSetAtom(openLoginDialogAtom);
  const { addPage: addAttachedPage, addTabPage } = attachments;
  const addAttachedFile = useFileOrOtherModel(attachments.addFile, model, otherModels);

  /** Whether an upload may start now; a visitor gets the login dialog. */
  const canUpload = useCallback(() => {
    if (loggedIn) return true;
    openLogin('chat.notLoginTip');
    return false;
  }, [loggedIn, openLogin]);

  const addPage = useCallback<AddPage>((url) => (canUpload() ? addAttachedPage(url) : null), [canUpload, addAttachedPage]);
  const addFile = useCallback<AddFile>((file) => (canUpload() ? addAttachedFile(file) : null), [canUpload, addAttachedFile]);

  const readTab = useCallback(
    (tab: ActiveTab) => {
      if (!canUpload()) return;
      const refused = addTabPage(tab);
      if (refused) notifyError(refused);
    },
    [canUpload, addTabPage],
  );

  /** Pasted files: each is checked on its own (an image of a type the model does not take is refused). */
  const pasteFiles = useCallback(
    (files: File[]) => {
      if (!canUpload()) return;
      for (const file of files) {
        const refused = addAttachedFile(file);
        if (refused) notifyError(refused);
      }
    },
    [canUpload, addAttachedFile],
  );

  const drop = useChatDrop({
    onLink: (url) => {
      const refused = addPage(url);
      if (refused) notifyError(refused);
    },
    // One file per drop. The user is told the others were left out.
    onFile: (file, count) => {
      const refused = addFile(file);
      if (refused) notifyError(refused);
      else if (count > 1) notifyError(t('chat.content.oneFilePerDrop', { name: fileNameOf(file) }));
    },
  });

  /** What the current model accepts, for the file chooser. */
  const accepted = useMemo(() => (model ? acceptedExtensions(model.modelMap) : []), [model]);
  const fileUnavailable = !model
    ? t('chat.composer.webSearchNoModel')
    : accepted.length === 0
      ? t('chat.content.modelTakesNoFiles', { model: modelName(model, t) })
      : null;

  return { canUpload, addPage, addFile, readTab, pasteFiles, drop, accepted, fileUnavailable };
}
