import { describe, expect, it } from 'vitest';
import { cutBefore, mergeBands, Pager, type Band } from '../../../components/share/chat-pdf-pages.ts';

/** Lines of `height` every `step`, starting at `from`. */
const lines = (count: number, from = 0, step = 20, height = 16): Band[] =>
  Array.from({ length: count }, (_, i) => ({ top: from + i * step, bottom: from + i * step + height }));

/** Runs the pager over units and returns each page as the slices drawn on it: [unit, from, to, at]. */
function paginate(pageHeight: number, units: { height: number; bands: Band[] }[]) {
  const pages: [number, number, number, number][][] = [[]];
  let unit = 0;
  const pager = new Pager(pageHeight, { draw: (from, to, at) => pages.at(-1)!.push([unit, from, to, at]), newPage: () => pages.push([]) });
  for (const [i, u] of units.entries()) {
    unit = i;
    pager.add(u.height, mergeBands(u.bands));
  }
  expect(pager.pageCount).toBe(pages.length);
  return pages;
}

describe('mergeBands', () => {
  it('sorts bands and merges those that overlap, leaving the gaps', () => {
    expect(mergeBands([{ top: 50, bottom: 60 }, { top: 0, bottom: 16 }, { top: 10, bottom: 30 }, { top: 30, bottom: 40 }, { top: 5, bottom: 5 }])).toEqual([
      { top: 0, bottom: 30 },
      { top: 30, bottom: 40 },
      { top: 50, bottom: 60 },
    ]);
  });
});

describe('cutBefore', () => {
  const bands = lines(5);
  it('ends at the limit when it falls between lines, else before the line it would cut', () => {
    expect(cutBefore(bands, 0, 38)).toBe(38);
    expect(cutBefore(bands, 0, 45)).toBe(40);
    expect(cutBefore(bands, 0, 500)).toBe(500);
  });
  it('gives up when the line it would cut starts where the slice does', () => {
    expect(cutBefore([{ top: 0, bottom: 300 }], 0, 100)).toBeNull();
    expect(cutBefore(bands, 40, 50)).toBeNull();
  });
});

describe('Pager', () => {
  it('never ends a page inside a line, and keeps pages full up to the last line that fits', () => {
    // 20 lines of 16 px every 20 px on pages of 110 px: 5 lines a page (the 6th would reach 116).
    const pages = paginate(110, [{ height: 400, bands: lines(20) }]);
    expect(pages).toHaveLength(4);
    expect(pages[0]).toEqual([[0, 0, 100, 0]]);
    expect(pages[1]).toEqual([[0, 100, 200, 0]]);
    expect(pages[3]).toEqual([[0, 300, 400, 0]]);
  });

  it('puts units one below the other, breaking one between its lines where the page ends', () => {
    const pages = paginate(100, [
      { height: 70, bands: lines(3, 4) },
      // Its first line would end at 70 + 4 + 16 = 90 ≤ 100: it starts on page 1, and breaks before its second line.
      { height: 60, bands: lines(3, 4) },
      // Page 2 is filled to 60 - 24 = 36; this one, 60 tall, fits below it.
      { height: 60, bands: [{ top: 40, bottom: 60 }] },
    ]);
    expect(pages).toEqual([
      [[0, 0, 70, 0], [1, 0, 24, 70]],
      [[1, 24, 60, 0], [2, 0, 60, 36]],
    ]);
  });

  it('moves a block taller than what is left of a page to the next, and cuts only one taller than a page', () => {
    const pages = paginate(100, [
      { height: 50, bands: lines(2) },
      { height: 80, bands: [{ top: 0, bottom: 80 }] },
      { height: 250, bands: [{ top: 0, bottom: 250 }] },
    ]);
    expect(pages).toEqual([
      [[0, 0, 50, 0]],
      [[1, 0, 80, 0]],
      [[2, 0, 100, 0]],
      [[2, 100, 200, 0]],
      [[2, 200, 250, 0]],
    ]);
  });

  it('starts no empty page when a unit ends exactly at the bottom', () => {
    expect(paginate(100, [{ height: 100, bands: lines(5) }])).toEqual([[[0, 0, 100, 0]]]);
    expect(paginate(100, [{ height: 100, bands: lines(5) }, { height: 10, bands: [] }])).toEqual([[[0, 0, 100, 0]], [[1, 0, 10, 0]]]);
  });
});
