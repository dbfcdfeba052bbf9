import { HostError, isHostError, messageOf } from "../core/errors.js";
import type { RestartDecision } from "../core/supervisor.js";
import type { LspClient } from "./client.js";
import { exchange, type ExchangeOptions, type Loaded } from "./exchange.js";
import type { Entry } from "./pool-process.js";
import type { PoolEvent } from "./pool-types.js";
import type { Answer } from "./readiness.js";
import { untilAborted } from "./workspace-queue.js";

/** A failure of the process or its pipes: the one kind a read-only query is replayed after. */
const isTransportFailure = (e: unknown) =>
  isHostError(e) && (e.data?.reason === "server_exited" || e.data?.reason === "server_failed" || e.data?.reason === "spawn_failed");

export interface ReplaceDeps {
  start(entry: Entry): Promise<LspClient>;
  stopProcess(entry: Entry, state?: Entry["state"]): Promise<void>;
  scheduleIdle(entry: Entry): void;
  changed(): void;
  observe(event: PoolEvent): void;
  /** The restart budget's window, for the message of a spent budget. */
  budgetWindowMs: number;
  exchange: ExchangeOptions;
}

/**
 * LSP-4's recovery, on the core supervisor's budget: a transport failure replaces the server once and
 * replays the query; a second failure is a typed error; over the budget the server stays failed until
 * a person restarts it.
 */
export function askReplacingOnce(d: ReplaceDeps) {
  const { start, stopProcess, scheduleIdle, changed, observe } = d;

  /** Counts a transport failure and decides on a replacement; over budget the process is failed until restarted. */
  const recordFailure = (entry: Entry, error: unknown): RestartDecision => {
    const decision = entry.budget.failed();
    entry.lastError = messageOf(error);
    if (entry.budget.spent()) {
      entry.broken = `It failed ${entry.budget.recentFailures()} times within ${Math.round(d.budgetWindowMs / 60_000)} min (last: ${messageOf(error)}). Restart it in Settings → Language servers.`;
      entry.state = "failed";
    }
    changed();
    return decision;
  };

  /** Asks the entry's server, replacing it once on a transport failure and replaying (every operation is read-only). */
  const ask = async (entry: Entry, loaded: Loaded, signal: AbortSignal): Promise<Answer> => {
    entry.budget.resetAttempts(); // each query may replace its server once
    for (;;) {
      if (entry.broken) throw new HostError("unavailable:lsp", `The language server "${entry.serverId}" is failing: ${entry.broken}`, { reason: "server_failed" });
      try {
        // A running client is used as is: no start promise, no abort listener on the warm path.
        const running = entry.client && !entry.client.closed ? entry.client : undefined;
        const client = running ?? await untilAborted(start(entry), signal);
        clearTimeout(entry.idle);
        const answer = await exchange(entry, client, loaded, signal, d.exchange);
        entry.lastUsedAt = new Date().toISOString();
        scheduleIdle(entry);
        changed();
        return answer;
      } catch (error) {
        if (signal.aborted || !isTransportFailure(error)) throw error;
        const decision = recordFailure(entry, error);
        if (!decision.restart && decision.reason === "exhausted") {
          throw new HostError("unavailable:lsp", `The language server "${entry.serverId}" failed twice while answering ${loaded.operation}: ${messageOf(error)}`, { reason: "server_failed" }, { cause: error });
        }
        // Over budget it is stopped all the same, and the check above refuses it.
        entry.restarts++;
        observe({ type: "replace", serverId: entry.serverId, workspace: entry.root, pid: entry.pid ?? undefined });
        await stopProcess(entry, "failed");
      }
    }
  };

  return ask;
}
