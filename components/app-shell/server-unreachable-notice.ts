import { deferred } from '../ui/deferred.tsx';

/**
 * The notice for a server that cannot be reached, as a chunk of its own: it shows only when a call
 * fails, so its code is fetched after the first screen (the chat preloads it) instead of before it.
 */
export const ServerUnreachableNotice = deferred(() => import('./server-unreachable.tsx').then((module) => module.ServerUnreachable));
