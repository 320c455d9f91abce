import { Alert, Button, Center, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/invite.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { ApiError } from '../../shared/api/request.ts';
import { posterQuery, posterFileName, type PosterLanguage } from './api.ts';
import { IconDownload, IconLink } from '../ui/icons.tsx';
import { downloadBlob } from '../ui/download.ts';
import { Modal } from '../ui/overlays.tsx';
import { notifyError, notifySuccess } from '../ui/notify.ts';

addEnglishStrings(en);

export interface PosterDialogProps {
  opened: boolean;
  onClose: () => void;
  inviteCode: string;
  inviteUrl: string;
}

/**
 * The invite poster (docs/api.md#invite-poster): the picture the server makes for the user's code in
 * the app's language, to download as a PNG or share (with the picture where the browser's share sheet
 * takes files, else the link is copied).
 */
export function PosterDialog({ opened, onClose, inviteCode, inviteUrl }: PosterDialogProps) {
  const { t, i18n } = useTranslation();
  const lang: PosterLanguage = i18n.language.startsWith('zh') ? 'zh' : 'en';
  const poster = useQuery({ ...posterQuery(inviteCode, lang), enabled: opened });
  const src = useObjectUrl(poster.data);
  const fileName = posterFileName(inviteCode, lang);

  const share = async (blob: Blob) => {
    const file = new File([blob], fileName, { type: 'image/png' });
    const data: ShareData = { files: [file], title: t('invite.posterShareTitle'), text: inviteUrl };
    if (typeof navigator.share === 'function' && navigator.canShare?.(data)) {
      try {
        await navigator.share(data);
      } catch (error) {
        // Closing the share sheet is not a failure.
        if ((error as Error).name !== 'AbortError') notifyError(t('invite.posterShareFailed'));
      }
      return;
    }
    const write = navigator.clipboard?.writeText(inviteUrl) ?? Promise.reject(new Error('no clipboard'));
    await write.then(
      () => notifySuccess(t('invite.posterLinkCopied')),
      () => notifyError(t('invite.copyFailed')),
    );
  };

  let body;
  if (poster.isPending) {
    body = (
      <Center h={320}>
        <Stack align="center" gap="xs">
          <Loader size="sm" />
          <Text size="sm" c="dimmed">
            {t('invite.posterMaking')}
          </Text>
        </Stack>
      </Center>
    );
  } else if (poster.isError) {
    body = (
      <Stack gap="sm">
        <Alert color="red" role="alert">
          {poster.error instanceof ApiError && poster.error.message ? poster.error.message : t('invite.posterFailed')}
        </Alert>
        <Button variant="light" onClick={() => void poster.refetch()} style={{ alignSelf: 'flex-start' }}>
          {t('invite.retry')}
        </Button>
      </Stack>
    );
  } else {
    const blob = poster.data;
    body = (
      <Stack gap="md">
        {src && <Image src={src} alt={t('invite.posterAlt')} fit="contain" mah="60vh" radius={6} data-testid="invite-poster-image" />}
        <Group grow gap="sm">
          <Button leftSection={<IconDownload size={16} />} onClick={() => downloadBlob(blob, fileName)}>
            {t('invite.posterDownload')}
          </Button>
          <Button variant="light" leftSection={<IconLink size={16} />} onClick={() => void share(blob)}>
            {t('invite.posterShare')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Modal opened={opened} onClose={onClose} title={t('invite.posterTitle')} centered size="sm">
      {body}
    </Modal>
  );
}

/** An object URL of `blob` while it is shown, revoked when it changes or the dialog goes. */
function useObjectUrl(blob: Blob | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) return setUrl(null);
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}
