import type { TRPCRouterRecord } from "@trpc/server";
import { LiveInput, type LiveEvent } from "@seam/shared";
import { iterateEvents } from "../../core/events.js";
import type { HostApi } from "../../host-api.js";
import { clientMessage, procedure } from "../trpc.js";

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
  const stop = new AbortController();
  const until = AbortSignal.any([signal, stop.signal]);
  let emit: (event: LiveEvent) => void = () => {};
  const merged = iterateEvents<LiveEvent>((fn) => {
    emit = (event) => void fn(event);
    return () => { emit = () => {}; };
  }, until);
  for (const topic of new Set(topics)) {
    void (async () => {
      try {
        // Runs synchronously up to each source's subscription, so all are subscribed before `started`.
        for await (const data of source(host, topic, until)) emit({ kind: "data", topic, data });
      } catch (error) {
        if (!until.aborted) emit({ kind: "error", topic, message: clientMessage(error, `live.stream ${topic}`) });
      }
    })();
  }
  try {
    yield { kind: "started" };
    yield* merged;
  } finally {
    // Every source ends on this abort.
    stop.abort();
  }
}

export const liveRouter = {
  /** Every live topic a page watches, on one stream. */
  stream: procedure.input(LiveInput).subscription(({ ctx, input, signal }) =>
    mergeTopics(ctx.host, input.topics, signal ?? new AbortController().signal)),
} satisfies TRPCRouterRecord;
