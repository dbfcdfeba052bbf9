"use client";
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { followAfterScroll } from "./follow";

/**
 * Scroll-lock for a growing block: it stays pinned to the bottom while following; scrolling up stops
 * that until the user scrolls back down or presses "Follow". `content` changes trigger the pin.
 */
export function useFollowScroll(ref: RefObject<HTMLElement | null>, content: unknown) {
  const [following, setFollowing] = useState(true);
  const followingRef = useRef(true);
  const lastTop = useRef(0);

  const onScroll = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    const next = followAfterScroll(followingRef.current, lastTop.current, el);
    lastTop.current = el.scrollTop;
    if (next !== followingRef.current) {
      followingRef.current = next;
      setFollowing(next);
    }
  }, [ref]);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !followingRef.current) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, [ref, content]);

  const follow = useCallback(() => {
    followingRef.current = true;
    setFollowing(true);
    const el = ref.current;
    if (el) {
      el.scrollTop = el.scrollHeight;
      lastTop.current = el.scrollTop;
    }
  }, [ref]);

  return { following, onScroll, follow };
}
