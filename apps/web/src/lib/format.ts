/** Sizes in the tool cards: 512 B, 3.4 KB. */
export function formatBytes(n: number): string {
  return n < 1024 ? `${Math.round(n)} B` : `${(n / 1024).toFixed(1)} KB`;
}

/** A publication date as a calendar day (in UTC, so a date-only value does not shift); anything unparsable as it came. */
export function formatPublished(value: string): string {
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  return new Date(t).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}
