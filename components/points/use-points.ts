import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import en from '../../locales/features/points.en.json';
import { addEnglishStrings } from '../../shared/i18n/feature-strings.ts';
import { balanceOf, pointsBalanceQuery } from '../../shared/api/points-balance.ts';
import { checkIn, checkinStatusKey, checkinStatusQuery, invalidatePoints } from '../../shared/api/points.ts';
import { ApiError } from '../../shared/api/request.ts';
import { tokenAtom } from '../../shared/atoms/auth.ts';
import { Codes } from '../../shared/contracts/envelope.ts';
import { notifySuccess } from '../ui/notify.ts';

addEnglishStrings(en);

/** The signed-in user's balance (null while loading, or signed out), with the query for its states. */
export function useBalance() {
  const token = useAtomValue(tokenAtom);
  const query = useQuery(pointsBalanceQuery(token));
  return { balance: query.data ? balanceOf(query.data) : null, query };
}

/** Today's check-in: done or not, the streak, the points it gives. */
export function useCheckinStatus() {
  const token = useAtomValue(tokenAtom);
  return useQuery(checkinStatusQuery(token));
}

/**
 * The check-in button's action: checks in with the browser's time zone, says what it earned
 * ("+10 points, 3-day streak") and reads the balance again. A refusal is the mutation's error, shown
 * where the button is (checkinFailure): the server's message (done already today: 10409).
 */
export function useCheckIn() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = useAtomValue(tokenAtom);
  const status = checkinStatusQuery(token);
  return useMutation({
    mutationFn: () => checkIn(),
    onSuccess: async (result) => {
      queryClient.setQueryData(status.queryKey, result);
      notifySuccess(t('points.checkin.success', { points: result.points, count: result.streak }));
      await invalidatePoints(queryClient);
    },
    onError: (error) => {
      // Done already (another tab, another device): today's status is read again.
      if (error instanceof ApiError && error.code === Codes.Conflict) void queryClient.invalidateQueries({ queryKey: checkinStatusKey(token) });
    },
  });
}

/** What a failed check-in shows: the server's message, or 'Check-in failed'. */
export function checkinFailure(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
