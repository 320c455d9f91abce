import { useEffect, useState } from 'react';
import { headImgLink } from '../../shared/api/user.ts';
import type { UserInfo } from '../../shared/contracts/user.ts';
import { UserAvatar, type UserAvatarProps } from '../ui/user-avatar.tsx';

/**
 * The user's picture (UserInfo.headImg) as this page can show it. The web app and the console,
 * served by the server, load its address as it is; the extension's pages (side panel, popup), whose
 * CSP lets in no other origin's images (docs/security.md), get its bytes fetched as a blob: URL, once
 * per address (an address never changes its picture). `pending` while that fetch runs; `src` null
 * without a picture or when it could not be fetched (the initials show).
 */
export function useHeadImgSrc(path: string | null | undefined): { src: string | null; pending: boolean } {
  const link = headImgLink(path);
  const direct = !link || !!globalThis.location?.protocol.startsWith('http');
  // What became of `link`: its blob: URL once fetched, '' once it failed.
  const [outcome, setOutcome] = useState<[string, string]>(['', '']);
  useEffect(() => {
    if (direct) return;
    let live = true;
    // The loader's chunk comes only to the extension's pages, and only for a user with a picture.
    import('../../shared/api/image-proxy.ts')
      .then((loader) => loader.loadOwnImage(link))
      .then(
        (url) => live && setOutcome([link, url]),
        () => live && setOutcome([link, '']),
      );
    return () => {
      live = false;
    };
  }, [link, direct]);
  if (direct) return { src: link || null, pending: false };
  return outcome[0] === link ? { src: outcome[1] || null, pending: false } : { src: null, pending: true };
}

/** A user's avatar on any page: their picture as this page can show it, else their initials. */
export function HeadImgAvatar({ user, ...rest }: { user: Pick<UserInfo, 'headImg' | 'userName' | 'email'> } & Omit<UserAvatarProps, 'src' | 'pending' | 'name' | 'email'>) {
  const { src, pending } = useHeadImgSrc(user.headImg);
  return <UserAvatar src={src} pending={pending} name={user.userName} email={user.email} {...rest} />;
}
