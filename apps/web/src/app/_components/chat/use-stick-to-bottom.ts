"use client";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";

const SLACK = 48;

/**
 * Keeps a scroll container pinned to the bottom while content grows, unless the user scrolled up.
 * `follow`: start pinned at the bottom (false when the view opens elsewhere, e.g. on a message jumped to);
 * reaching the bottom by scrolling pins it again.
 */
export function useStickToBottom(
  scrollRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
  mounted: boolean,
  follow = true,
) {
  const stick = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  useEffect(() => {
    const el = scrollRef.current;
    const content = contentRef.current;
    if (!el || !content) return;
    stick.current = follow;
    setAtBottom(follow);
    let lastTop = el.scrollTop;
    // Growth never moves scrollTop up, so only a decrease means the user scrolled away. Checking the
    // distance alone would misfire when content grows between our scroll and its (async) event.
    const onScroll = () => {
      const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
      if (distance < SLACK) stick.current = true;
      else if (el.scrollTop < lastTop - 1) stick.current = false;
      lastTop = el.scrollTop;
      setAtBottom(stick.current);
    };
    const ro = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    el.addEventListener("scroll", onScroll, { passive: true });
    ro.observe(content);
    if (follow) el.scrollTop = el.scrollHeight;
    return () => {
      el.removeEventListener("scroll", onScroll);
      ro.disconnect();
    };
  }, [scrollRef, contentRef, mounted, follow]);

  const scrollToBottom = useCallback(
    (smooth = true) => {
      const el = scrollRef.current;
      if (!el) return;
      stick.current = true;
      setAtBottom(true);
      el.scrollTo({ top: el.scrollHeight, behavior: smooth ? "smooth" : "auto" });
    },
    [scrollRef],
  );

  return { atBottom, scrollToBottom };
}
