import { z } from 'zod';

/**
 * The spec's link open targets (product spec §3): where a link the product opens goes — this tab
 * (`self`), a new window, the top frame, or the bottom of the page (a link shown under the current
 * view, e.g. in the side panel beside the page). Wire values as the HTML targets they map to.
 */
export const LinkOpenTargetSchema = z.enum(['self', 'newWindow', 'top', 'bottom']);
export type LinkOpenTarget = z.infer<typeof LinkOpenTargetSchema>;
