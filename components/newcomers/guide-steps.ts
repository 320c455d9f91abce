/** The installation guide's steps, each with its screenshot per language in public/guide/<language>/<step>.webp (scripts/guide-screenshots.ts). */
export const GUIDE_STEPS = ['download', 'extensions', 'developer', 'load', 'pin'] as const;

/** The languages the guide has screenshots in; another shows the English ones. */
export const GUIDE_LANGUAGES = ['en', 'zh'] as const;

/** Where a step's screenshot is, for the reader's language. */
export function guideScreenshot(step: (typeof GUIDE_STEPS)[number], language: string): string {
  const lang = GUIDE_LANGUAGES.find((l) => language === l || language.startsWith(`${l}-`)) ?? 'en';
  return `/guide/${lang}/${step}.webp`;
}
