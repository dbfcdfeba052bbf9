/** At most this many lines of the wanted text are compared per window (evenly sampled)… */
const MAX_SAMPLED_LINES = 16;
/** …and fewer in large files: about this many line comparisons in all (at least two lines per window). */
const COMPARISON_BUDGET = 400_000;

export interface Closest {
  /** 0-based index of the first line of the best window. */
  start: number;
  /** Lines in the window. */
  length: number;
  /** Mean line similarity, 0..1. */
  score: number;
}

/**
 * The window of `lines` most like `wanted` (same number of lines), scored by the mean similarity of
 * the lines at the same offsets (bigram Dice on trimmed lines, so indentation and small typos count
 * little). Long `wanted` texts are compared on a sample of their lines.
 */
export function closestWindow(lines: readonly string[], wanted: readonly string[]): Closest | undefined {
  if (lines.length === 0 || wanted.length === 0) return undefined;
  const length = Math.min(wanted.length, lines.length);
  const samples = Math.max(2, Math.min(MAX_SAMPLED_LINES, Math.floor(COMPARISON_BUDGET / lines.length)));
  const step = Math.max(1, length / samples);
  const offsets: number[] = [];
  for (let k = 0; k < length && offsets.length < samples; k += step) offsets.push(Math.floor(k));

  const fileGrams = lines.map((line) => bigrams(line.trim()));
  const windows = lines.length - length + 1;
  const sums = new Float64Array(windows);
  for (const offset of offsets) {
    const want = wanted[offset]!.trim();
    const wantGrams = bigrams(want);
    for (let start = 0; start < windows; start++) {
      const line = lines[start + offset]!;
      sums[start]! += similarity(want, wantGrams, line.trim(), fileGrams[start + offset]!);
    }
  }
  let best = 0;
  for (let start = 1; start < windows; start++) if (sums[start]! > sums[best]!) best = start;
  return { start: best, length, score: sums[best]! / offsets.length };
}

/** Sorted character bigrams, each packed into one number. */
function bigrams(text: string): Uint32Array {
  const out = new Uint32Array(Math.max(0, text.length - 1));
  for (let i = 0; i < out.length; i++) out[i] = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
  return out.sort();
}

function similarity(a: string, aGrams: Uint32Array, b: string, bGrams: Uint32Array): number {
  if (a === b) return 1;
  if (aGrams.length === 0 || bGrams.length === 0) return a.length > 0 && b.length > 0 && a[0] === b[0] ? 0.5 : 0;
  let common = 0;
  for (let i = 0, j = 0; i < aGrams.length && j < bGrams.length;) {
    if (aGrams[i] === bGrams[j]) {
      common++;
      i++;
      j++;
    } else if (aGrams[i]! < bGrams[j]!) i++;
    else j++;
  }
  return (2 * common) / (aGrams.length + bGrams.length);
}
