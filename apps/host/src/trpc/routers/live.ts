import type { TRPCRouterRecord } from "@trpc/server";
import { LiveInput, type LiveEvent } from "@seam/shared";
import { messageOf } from "../../core/errors.js";
import type { HostApi } from "../../host-api.js";
import { procedure } from "../trpc.js";

/** The host stream behind one live topic. */
function source(host: HostApi, topic: string, signal: AbortSignal): AsyncIterable<unknown> {
  if (topic.startsWith("session:")) return host.sessions.events(topic.slice("session:".length), signal);
  switch (topic) {
    case "sessions": return host.sessions.listEvents(signal);
    case "extensions": return host.extensions.events(signal);
    case "bridge": return host.extensions.bridge(signal);
    case "mcp": return host.mcp.events(signal);
    case "lsp": return host.lsp.events(signal);
  }
  throw new Error(`unknown topic ${topic}`);
}

/**
 * Merges the topics' streams into one (a page holds one connection for all its live data). Every
 * source is subscribed before `started` is sent, so a page that refetches on `started` misses nothing.
 */
export async function* mergeTopics(host: HostApi, topics: string[], signal: AbortSignal): AsyncGenerator<LiveEvent> {
  const queue: LiveEvent[] = [];
  let wake: (() => void) | null = null;
  const push = (event: LiveEvent) => {
    queue.push(event);
    wake?.();
  };
  const stop = new AbortController();
  const onAbort = () => {
    stop.abort();
    wake?.();
  };
  signal.addEventListener("abort", onAbort);
  const pumps = [...new Set(topics)].map(async (topic) => {
    try {
      // The first next() runs each source up to its subscription before `started` goes out.
      const it = source(host, topic, stop.signal)[Symbol.asyncIterator]();
      for (let r = await it.next(); !r.done; r = await it.next()) push({ kind: "data", topic, data: r.value });
    } catch (error) {
      if (!stop.signal.aborted) push({ kind: "error", topic, message: messageOf(error) });
    }
  });
  try {
    yield { kind: "started" };
    while (!stop.signal.aborted) {
      if (queue.length === 0) await new Promise<void>((r) => { wake = r; });
      wake = null;
      while (queue.length > 0 && !stop.signal.aborted) yield queue.shift()!;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Every source ends on this abort; nothing here waits for them.
    stop.abort();
    void Promise.allSettled(pumps);
  }
}

export const liveRouter = {
  /** Every live topic a page watches, on one stream. */
  stream: procedure.input(LiveInput).subscription(({ ctx, input, signal }) =>
    mergeTopics(ctx.host, input.topics, signal ?? new AbortController().signal)),
} satisfies TRPCRouterRecord;
