import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ModelListItem } from '../../shared/contracts/model.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import type { MediaItem, useAttachments } from './use-attachments.ts';

type Attachments = Pick<ReturnType<typeof useAttachments>, 'unsupportedBy' | 'removeMany'>;

const nameOf = (item: MediaItem) => item.title || item.name;

/**
 * Model switch: picking a model that cannot read some of the current attachments (images on
 * a model without isImage, a file type not among its fileTypes) asks first; confirming removes
 * those attachments and switches, cancelling keeps the model in use and every attachment.
 */
export function useModelSwitch(attachments: Attachments, onSwitch: (model: ModelListItem) => void) {
  const { t, i18n } = useTranslation();
  const [pending, setPending] = useState<{ model: ModelListItem; items: MediaItem[] } | null>(null);
  // The question stays readable while the dialog closes.
  const [opened, setOpened] = useState(false);
  const { unsupportedBy, removeMany } = attachments;

  const request = useCallback(
    (model: ModelListItem) => {
      const items = unsupportedBy(model);
      if (items.length === 0) {
        onSwitch(model);
        return;
      }
      setPending({ model, items });
      setOpened(true);
    },
    [onSwitch, unsupportedBy],
  );

  const confirm = () => {
    if (!pending) return;
    // What was added while the question was open is checked too.
    removeMany(unsupportedBy(pending.model).map((item) => item.uid));
    onSwitch(pending.model);
    setOpened(false);
  };

  const names = pending ? new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(pending.items.map(nameOf)) : '';
  const dialog = (
    <ConfirmDialog
      opened={opened}
      title={t('chat.model.switchTitle')}
      message={pending ? t('chat.model.switchMessage', { model: pending.model.name, names, count: pending.items.length }) : ''}
      confirmLabel={t('chat.model.switchConfirm')}
      cancelLabel={t('chat.model.switchCancel')}
      danger
      onConfirm={confirm}
      onCancel={() => setOpened(false)}
    />
  );
  return { request, dialog };
}
