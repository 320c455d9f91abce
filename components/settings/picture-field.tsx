import { Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef, useState, type ComponentPropsWithoutRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useHeadImgSrc } from '../app-shell/head-img.tsx';
import { authActionAtom, userInfoAtom } from '../../shared/atoms/auth.ts';
import { HEAD_IMG } from '../../shared/contracts/account.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { errorMessage } from '../ui/error-message.ts';
import { failedWith, notifySuccess } from '../ui/notify.ts';
import { UserAvatar } from '../ui/user-avatar.tsx';
import { deleteHeadImg, uploadHeadImg } from './api.ts';

const TYPES = HEAD_IMG.accept.split(',');
const EXTENSIONS = /\.(png|jpe?g|webp)$/i;
const MAX_MB = HEAD_IMG.maxBytes / 1024 / 1024;
/** The file chooser's hidden input, named for tests. */
const PICTURE_INPUT = { 'data-testid': 'picture-input' } as ComponentPropsWithoutRef<'input'>;

/** Why a chosen file cannot be a picture (checked before anything is sent), or null. The server judges the content again. */
export function pictureProblem(file: File, t: (key: string, params?: Record<string, unknown>) => string): string | null {
  const typeOk = file.type ? TYPES.includes(file.type) : EXTENSIONS.test(file.name);
  if (!typeOk) return t('settings.picture.wrongType');
  if (file.size > HEAD_IMG.maxBytes) return t('settings.picture.tooLarge', { max: MAX_MB });
  return null;
}

/**
 * The Profile card's picture: the current one (or the initials), a file to choose, its preview as
 * the circle will show it (the server crops the centre square, as `object-fit: cover` does here),
 * then Save or Cancel; and Remove. Refusals show under it, in the reader's language.
 */
export function PictureField() {
  const { t } = useTranslation();
  const user = useAtomValue(userInfoAtom);
  const auth = useSetAtom(authActionAtom);
  const [chosen, setChosen] = useState<{ file: File; url: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const resetRef = useRef<() => void>(null);

  // The preview's object URL lives as long as the preview.
  useEffect(() => (chosen ? () => URL.revokeObjectURL(chosen.url) : undefined), [chosen]);

  const done = (message: string) => async (userInfo: UserInfo) => {
    await auth({ type: 'userInfo', userInfo });
    setChosen(null);
    setError(null);
    notifySuccess(message);
  };
  // The spec's words for an upload and a delete that failed, with the reason.
  const failed = (what: string) => (error: unknown) => setError(failedWith(what, errorMessage(error) || t('settings.picture.failed')));
  const save = useMutation({ mutationFn: (file: File) => uploadHeadImg(file, file.name), onSuccess: done(t('settings.picture.saved')), onError: failed(t('errors.uploadFailed')) });
  const remove = useMutation({ mutationFn: deleteHeadImg, onSuccess: done(t('settings.picture.removed')), onError: failed(t('errors.deleteFailed')) });

  const choose = (file: File | null) => {
    resetRef.current?.();
    if (!file) return;
    const problem = pictureProblem(file, t);
    setError(problem);
    setChosen(problem ? null : { file, url: URL.createObjectURL(file) });
  };

  const current = useHeadImgSrc(user?.headImg);
  return (
    <Group align="center" gap="md" wrap="nowrap" data-testid="settings-picture">
      <UserAvatar
        size={64}
        src={chosen?.url ?? current.src}
        pending={!chosen && current.pending}
        name={user?.userName}
        email={user?.email}
        label={chosen ? t('settings.picture.preview') : t('settings.picture.label')}
        testId="settings-avatar"
      />
      <Stack gap={6} style={{ minWidth: 0 }}>
        <Group gap="xs">
          {chosen ? (
            <>
              <Button size="xs" loading={save.isPending} onClick={() => save.mutate(chosen.file)}>
                {t('settings.picture.save')}
              </Button>
              <Button size="xs" variant="default" disabled={save.isPending} onClick={() => setChosen(null)}>
                {t('settings.picture.cancel')}
              </Button>
            </>
          ) : (
            <>
              <FileButton accept={HEAD_IMG.accept} onChange={choose} resetRef={resetRef} inputProps={PICTURE_INPUT}>
                {(props) => (
                  <Button size="xs" variant="light" {...props}>
                    {user?.headImg ? t('settings.picture.change') : t('settings.picture.upload')}
                  </Button>
                )}
              </FileButton>
              {user?.headImg && (
                <Button size="xs" variant="light" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                  {t('settings.picture.remove')}
                </Button>
              )}
            </>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t('settings.picture.help', { max: MAX_MB })}
        </Text>
        {error && (
          <Text size="xs" c="red" role="alert" data-testid="picture-error">
            {error}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
