import { lazyPiece } from '../ui/error-boundary.tsx';

/**
 * Settings' Personalization and Memory sections (docs/api.md#personalization-and-memory): chunks
 * fetched with the settings page. The onboarding and the chat's "Remember this?" card are in
 * chat-memory.tsx.
 */
export const PersonalizationSettingsSection = lazyPiece(() =>
  import('../personalization/personalization-section.tsx').then((module) => ({ default: module.PersonalizationSection })),
);
export const MemorySettingsSection = lazyPiece(() => import('../personalization/memory-section.tsx').then((module) => ({ default: module.MemorySection })));
