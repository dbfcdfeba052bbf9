import type { HostHalfLimits } from "./host-half-types.js";

/** A host half's log: the last `maxLogLines` lines, each cut at `maxLogLineChars`, and how many were ever written. */
export function logBuffer(limits: Pick<HostHalfLimits, "maxLogLines" | "maxLogLineChars">) {
  const lines: string[] = [];
  let count = 0;
  return {
    log(line: string) {
      count++;
      lines.push(line.length > limits.maxLogLineChars ? `${line.slice(0, limits.maxLogLineChars)}…` : line);
      if (lines.length > limits.maxLogLines) lines.splice(0, lines.length - limits.maxLogLines);
    },
    lines: () => [...lines],
    count: () => count,
  };
}
