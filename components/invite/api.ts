import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Paged } from '../../shared/contracts/common.ts';
import { InviteInfoSchema, InvitedAccountPageSchema, type InviteInfo, type InvitedAccount } from '../../shared/contracts/invites.ts';
import { GET_POSTER_BY_CODE_PATH } from '../../shared/contracts/poster.ts';
import { apiGet, apiGetFile } from '../../shared/api/request.ts';

/** Invites (docs/economy.md#invites): the caller's code and link, and the accounts it brought. */

/** The invitations list loads 20 accounts per page. */
export const INVITE_PAGE_SIZE = 20;

/** The caller's own code (made on the first request), its link, and what it has earned. */
export function getMyInviteCode(signal?: AbortSignal): Promise<InviteInfo> {
  return apiGet('/api/InviteCode/GetMyInviteCode', undefined, { data: InviteInfoSchema, signal });
}

/** The accounts that signed up with the caller's code, newest first; names masked. */
export function getMyInviteList(query: { page: number; count: number }, signal?: AbortSignal): Promise<Paged<InvitedAccount>> {
  return apiGet('/api/InviteCode/GetMyInviteList', query, { data: InvitedAccountPageSchema, signal });
}

/** Keyed by the login's token, as the notifications are: another account's never show from the cache. */
export const inviteKey = ['invite'] as const;

export function myInviteQuery(token: string | null) {
  return queryOptions({
    queryKey: [...inviteKey, 'code', token] as const,
    queryFn: ({ signal }) => getMyInviteCode(signal),
    enabled: token !== null,
  });
}

export function myInviteListQuery(token: string | null) {
  return infiniteQueryOptions({
    queryKey: [...inviteKey, 'list', token] as const,
    queryFn: ({ pageParam, signal }) => getMyInviteList({ page: pageParam, count: INVITE_PAGE_SIZE }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages, lastPage) => {
      const loaded = pages.reduce((n, p) => n + p.list.length, 0);
      return last.list.length === INVITE_PAGE_SIZE && loaded < last.total ? lastPage + 1 : undefined;
    },
    enabled: token !== null,
  });
}

export type PosterLanguage = 'en' | 'zh';

/** The invite poster of `code` in `lang`: a PNG (GET /api/Poster/GetPosterByCode). */
export function getPosterByCode(code: string, lang: PosterLanguage, signal?: AbortSignal): Promise<Blob> {
  return apiGetFile(GET_POSTER_BY_CODE_PATH, { code, lang }, { signal });
}

/** The poster as the server made it; kept a few minutes (the server makes it again only when something on it changes). */
export function posterQuery(code: string, lang: PosterLanguage) {
  return queryOptions({
    queryKey: [...inviteKey, 'poster', code, lang] as const,
    queryFn: ({ signal }) => getPosterByCode(code, lang, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** What a downloaded poster is called: invite-poster-ABCD2345-en.png. */
export const posterFileName = (code: string, lang: PosterLanguage) => `invite-poster-${code}-${lang}.png`;
