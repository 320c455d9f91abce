import { atom } from 'jotai';

export interface LoginDialogState {
  open: boolean;
  /** An i18n key shown above the login frame (why the dialog opened), e.g. chat.notLoginTip. */
  notice?: string;
}

/** Anything may ask for a login (the 10402 handler, the sidebar): the app shell renders the dialog. */
export const loginDialogAtom = atom<LoginDialogState>({ open: false });

export const openLoginDialogAtom = atom(null, (_get, set, notice?: string) => set(loginDialogAtom, { open: true, notice }));
export const closeLoginDialogAtom = atom(null, (_get, set) => set(loginDialogAtom, { open: false }));
