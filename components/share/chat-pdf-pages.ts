/** A vertical stretch of a laid-out element that must not be cut (a line of text, a formula, a table row). */
export type Band = { top: number; bottom: number };

/** The bands sorted from the top, overlapping ones merged: the gaps between them are where a page may end. */
export function mergeBands(bands: readonly Band[]): Band[] {
  const sorted = bands.filter((b) => b.bottom > b.top).sort((a, b) => a.top - b.top);
  const merged: Band[] = [];
  for (const band of sorted) {
    const last = merged.at(-1);
    if (last && band.top < last.bottom) last.bottom = Math.max(last.bottom, band.bottom);
    else merged.push({ ...band });
  }
  return merged;
}

/**
 * Where a slice that starts at `from` and may reach `limit` should end so that no band is cut: at
 * `limit` when that falls between bands, else at the top of the band that crosses it. Null when that
 * band starts at or before `from` (it is taller than the room there).
 */
export function cutBefore(bands: readonly Band[], from: number, limit: number): number | null {
  for (const band of bands) {
    if (band.bottom <= limit) continue;
    if (band.top >= limit) return limit;
    return band.top > from ? band.top : null;
  }
  return limit;
}

/** What the pager asks of its owner: copy [from, to) of the current unit to `at` on the page, start a new page. */
export type PageSink = { draw(from: number, to: number, at: number): void; newPage(): void };

/**
 * Lays units (laid-out pieces of a document, each with its bands) one below the other on pages of
 * `pageHeight`, ending a page between bands where it can: a band that does not fit in what is left
 * of a page goes to the next one, and only a band taller than a whole page is cut.
 */
export class Pager {
  /** How far down the current page is filled. */
  private used = 0;
  private pages = 1;

  constructor(
    private readonly pageHeight: number,
    private readonly sink: PageSink,
  ) {}

  get pageCount(): number {
    return this.pages;
  }

  private next(): void {
    this.sink.newPage();
    this.pages++;
    this.used = 0;
  }

  add(height: number, bands: readonly Band[]): void {
    let pos = 0;
    while (height - pos > 0.5) {
      const room = this.pageHeight - this.used;
      if (height - pos <= room + 0.5) {
        this.sink.draw(pos, height, this.used);
        this.used += height - pos;
        return;
      }
      let cut = cutBefore(bands, pos, pos + room);
      if (cut === null || cut - pos < 1) {
        // A fresh page gives the band the most room it can have.
        if (this.used > 0) {
          this.next();
          continue;
        }
        cut = pos + room;
      }
      this.sink.draw(pos, cut, this.used);
      this.next();
      pos = cut;
    }
  }
}
