/**
 * What mantine-datatable needs of a browser that the jsdom stand-ins of tests/setup/jsdom.ts lack.
 * Test files of the console's tables call this first.
 * - Browsers match the empty media query (matchMedia('').matches is true); the stand-in answers "no
 *   match" to every query. The table asks for each column's `visibleMediaQuery`, '' when none is set,
 *   and hides the column when it does not match: every cell would be missing.
 * - jsdom has no Element.scrollTo, which the table calls to show the top of a new page.
 */
export function prepareDataTables(): void {
  const original = window.matchMedia.bind(window);
  window.matchMedia = (query: string) => {
    const list = original(query);
    return query.trim() === '' ? ({ ...list, matches: true, media: query } as MediaQueryList) : list;
  };
  if (typeof Element.prototype.scrollTo !== 'function') Element.prototype.scrollTo = () => {};
}
