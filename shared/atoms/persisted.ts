import { atom } from 'jotai';
import { peekPersisted, watchPersisted, writePersisted } from '../storage/active.ts';
import type { Persisted } from '../storage/persisted.ts';

const UNREAD = Symbol('unread');

/**
 * A Jotai atom over a persisted declaration. Not `atomWithStorage`: that one reads storage when the
 * atom is created (at module load, before an entrypoint has installed its storage) or only after the
 * first render (a logged-out flash on every panel open). This one reads the storage cache on first
 * use, which an entrypoint fills before rendering, and, while mounted, follows the storage's watch:
 * writes from other contexts arrive too (the side panel sees a login made in the popup).
 */
export function atomWithPersisted<T>(declaration: Persisted<T>) {
  const valueAtom = atom<T | typeof UNREAD>(UNREAD);
  valueAtom.onMount = (setValue) => {
    setValue(peekPersisted(declaration));
    return watchPersisted(declaration, (value) => setValue(value));
  };
  return atom(
    (get) => {
      const value = get(valueAtom);
      return value === UNREAD ? peekPersisted(declaration) : value;
    },
    (_get, set, next: T) => {
      set(valueAtom, next);
      return writePersisted(declaration, next);
    },
  );
}
