import { useMediaQuery } from '@mantine/hooks';
import { BELOW_WIDE_QUERY } from '../../shared/platform/platform.ts';

/**
 * Whether the screen is at least the spec's 1260 px breakpoint (shared/platform/platform.ts
 * WIDE_MIN_WIDTH), followed as the window is resized. Read at once on the first render, so a layout
 * does not start wide and then fold.
 */
export function useWideLayout(): boolean {
  return !useMediaQuery(BELOW_WIDE_QUERY, false, { getInitialValueInEffect: false });
}
