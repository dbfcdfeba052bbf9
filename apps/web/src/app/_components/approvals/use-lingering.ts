"use client";
import { useEffect, useState } from "react";

/**
 * `items`, plus the ones that just left it (marked stale) for `ms`: a card whose request was answered
 * elsewhere stays mounted a moment, so a late answer from this tab can still say "Answered in another
 * tab" instead of vanishing mid-click.
 */
export function useLingering<T extends { id: string }>(items: readonly T[], ms: number): { item: T; stale: boolean }[] {
  const key = items.map((i) => i.id).join("\n");
  const [prev, setPrev] = useState<{ key: string; items: readonly T[] }>({ key, items });
  const [left, setLeft] = useState<T[]>([]);
  if (prev.key !== key) {
    // Adjusting state while rendering: what left since the last render joins the lingering list.
    const ids = new Set(items.map((i) => i.id));
    const removed = prev.items.filter((p) => !ids.has(p.id));
    setPrev({ key, items });
    setLeft((l) => [...l.filter((x) => !ids.has(x.id) && !removed.some((r) => r.id === x.id)), ...removed]);
  }
  useEffect(() => {
    if (left.length === 0) return;
    const t = setTimeout(() => setLeft([]), ms);
    return () => clearTimeout(t);
  }, [left, ms]);
  const ids = new Set(items.map((i) => i.id));
  return [...items.map((item) => ({ item, stale: false })), ...left.filter((l) => !ids.has(l.id)).map((item) => ({ item, stale: true }))];
}
