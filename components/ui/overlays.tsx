import type { DrawerProps, ModalProps } from '@mantine/core';
import { deferred } from './deferred.tsx';

/**
 * Mantine's Modal and Drawer as the app uses them, with their code (the overlay, the focus trap, the
 * scroll lock) in a chunk fetched after the first screen: every dialog and drawer is closed when a
 * page opens. Same props as Mantine's.
 */
export const Modal = deferred<ModalProps>(() => import('@mantine/core').then(({ Modal }) => Modal)).Component;
export const Drawer = deferred<DrawerProps>(() => import('@mantine/core').then(({ Drawer }) => Drawer)).Component;
