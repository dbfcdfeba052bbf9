import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { ToolRegistry } from "./agent/registry.js";
import { cachedToolTokens } from "./agent/tool-tokens.js";
import { isHostError, messageOf } from "./core/errors.js";
import { warmProvider } from "./llm/llm.js";
import type { ModelSettingsService } from "./settings/model.js";
import type { Store } from "./persistence/store.js";
import { createLog, type Log } from "./core/log.js";

export interface WarmUpDeps {
  model: Pick<ModelSettingsService, "current" | "contextWindow" | "toolBudget" | "resolve">;
  store: Pick<Store, "sessions" | "items" | "turns" | "warmWrites">;
  /** The global tools: their spec token counts are cached once (the context meter reads them every step). */
  registry: Pick<ToolRegistry, "visible">;
  /** Where failed steps are reported (default: the host log). */
  log?: Log;
  /** Other capabilities' own warm-ups (the bash grammar of the permission checks). */
  others: (() => Promise<void>)[];
}

/**
 * Loads what the first model turn needs (#17 item 2) so that turn 1 costs what turn 2 costs: the configured
 * provider's adapter, run once against an answer made up in memory (`llm/rehearsal.ts`; nothing leaves the
 * process) and the configured model built (its response schemas), Node's fetch (undici loads on first use), the tokenizer and the global tools' spec counts the
 * context meter reads, the bash grammar of the permission gate, the skills parser (one sample parsed), the
 * settings, session, turn and item reads of the send path (Prisma plans each query shape on first use; an
 * unknown session id makes them read nothing) and a turn's writes (rolled back); then one full garbage
 * collection of what all that allocated. Started by `main.ts` once the listening server has been quiet for a moment
 * (`core/when-quiet.ts`), never on the path to readiness; a request that comes first loads what it needs itself.
 * Failures are only logged: nothing here is required.
 */
export async function warmUp(deps: WarmUpDeps): Promise<void> {
  const log = deps.log ?? createLog("host");
  const step = (what: string, fn: () => unknown) => Promise.resolve().then(fn).catch((error: unknown) => {
    log.warn(`warm-up: ${what}: ${messageOf(error)}`);
  });
  const status = await deps.model.current().catch(() => null);
  await Promise.all([
    step("model adapter", () => (status ? warmProvider(status.settings.provider) : undefined)),
    step("model settings", () => Promise.all([deps.model.contextWindow(), deps.model.toolBudget()])),
    step("configured model", () => deps.model.resolve().then((resolved) => resolved?.model.prepare?.(), (error: unknown) => {
      // No model or no key yet: the first turn says so itself; nothing to warn about at start.
      if (!(isHostError(error) && error.kind === "bad_input")) throw error;
    })),
    step("fetch", () => fetch("data:text/plain,seam").then((r) => r.arrayBuffer())),
    step("session reads", () => Promise.all([
      deps.store.sessions.get("warm-up"), deps.store.items.since("warm-up", 0), deps.store.items.lastFact("warm-up", "compaction"),
      deps.store.items.lastSeq("warm-up"),
      // `turns.list` refuses an unknown session (not_found) after its lookup: expected here, not worth a warning.
      deps.store.turns.list("warm-up").catch((error: unknown) => { if (!(isHostError(error) && error.kind === "not_found")) throw error; }),
      deps.store.turns.byIds("warm-up", ["warm-up"]), deps.store.turns.lastEnded("warm-up", "model"),
    ])),
    // The turn's writes, in a transaction that is rolled back: nothing is written.
    step("turn writes", () => deps.store.warmWrites()),
    ...deps.others.map((fn, i) => step(`capability ${i}`, fn)),
  ]);
  // Synchronous and the biggest (~0.3 s): last, after the asynchronous loads had their turn.
  await new Promise((r) => setImmediate(r));
  await step("tokenizer", () => {
    for (const tool of deps.registry.visible()) cachedToolTokens(tool);
  });
  // What the steps above allocated (the tokenizer's JSON, modules' source, the rehearsal) is garbage now; a
  // full collection here, while the host is idle, keeps that collection (~30–50 ms) out of the first turns.
  await step("collect", collectGarbage);
}

/** One full garbage collection. V8 offers it only behind --expose-gc, which can be switched on at runtime. */
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}
