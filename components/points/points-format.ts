/** A number of points as the language writes it: 1,000. */
export function formatPoints(points: number, language: string): string {
  return points.toLocaleString(language);
}

/** A change of points with its sign, as the language writes the number: +10, −1,000, 0. */
export function signed(points: number, language: string): string {
  if (points > 0) return `+${formatPoints(points, language)}`;
  if (points < 0) return `\u2212${formatPoints(-points, language)}`;
  return '0';
}
