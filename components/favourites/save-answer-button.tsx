import { ActionIcon, Tooltip } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/favourites.en.json';
import { addFavourite, deleteFavourite, favouritesKey, savedStateQuery } from './api.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { notifySuccess, onMutationError } from '../ui/notify.ts';
import { notifyWithAction } from '../ui/notify-with-action.tsx';
import { IconStar } from './favourite-icons.tsx';

addEnglishStrings(en);

export interface SaveAnswerButtonProps {
  /** The chat message whose answer is saved. */
  chatMessageId: string;
  /** Opens the saved answers: the "Saved" toast offers it. */
  onView?: () => void;
}

/**
 * The star under a finished answer: saves a copy of it to favourites, or removes the saved copy,
 * with a toast either way (the "Saved" one leads to the saved answers). Whether it is saved is asked for all the answers on screen in one call
 * (api.ts isSaved).
 */
export function SaveAnswerButton({ chatMessageId, onView }: SaveAnswerButtonProps) {
  const { t } = useTranslation();
  const token = useAtomValue(tokenAtom);
  const queryClient = useQueryClient();
  const stateQuery = savedStateQuery(token, chatMessageId);
  const state = useQuery(stateQuery);
  const favouriteId = state.data ?? null;

  const toggle = useMutation({
    mutationFn: async (): Promise<string | null> => {
      if (favouriteId) {
        await deleteFavourite(favouriteId);
        return null;
      }
      return (await addFavourite(chatMessageId)).favouriteId;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(stateQuery.queryKey, saved);
      // The list and the edited copies are read again when next shown.
      void queryClient.invalidateQueries({ queryKey: [...favouritesKey, 'list'] });
      if (saved && onView) notifyWithAction('success', t('favourites.saved'), { label: t('favourites.view'), onClick: onView });
      else notifySuccess(saved ? t('favourites.saved') : t('favourites.removed'));
    },
    // A favourite deleted elsewhere (or saved elsewhere): ask again.
    onError: onMutationError((message) => t('favourites.saveFailed', { message }), () => void queryClient.invalidateQueries({ queryKey: stateQuery.queryKey })),
  });

  const label = favouriteId ? t('favourites.unsave') : t('favourites.save');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color={favouriteId ? 'yellow' : 'gray'}
        size="sm"
        aria-label={label}
        aria-pressed={favouriteId !== null}
        data-testid="save-answer"
        loading={toggle.isPending}
        disabled={token === null || state.isPending}
        onClick={() => toggle.mutate()}
      >
        <IconStar size={14} filled={favouriteId !== null} />
      </ActionIcon>
    </Tooltip>
  );
}
