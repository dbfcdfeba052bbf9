import type { MessageItem, TimelineItem, ToolCallItem } from "@seam/shared";
import { HostError, messageOf } from "../core/errors.js";
import type { LlmModel, ToolSpec } from "../llm/llm.js";
import type { Store } from "../persistence/store.js";
import type { ToolRegistry } from "./registry.js";
import type { ToolRuntime } from "./runtime.js";
import type { StepHooks } from "./hooks.js";
import type { ViewSnapshot } from "./model-view.js";
import { systemPrompt } from "./prompt.js";
import type { ToolSet } from "./tool-set.js";
import { stopReason } from "./stop.js";
import { createLog } from "../core/log.js";

const log = createLog("agent");

export interface TurnDeps {
  store: Store;
  registry: ToolRegistry;
  /** Which tool specs each step sends (CTX-3: deferred tools, tool_search, byte-stable order). */
  tools: Pick<ToolSet, "next">;
  runtime: ToolRuntime;
  hooks: StepHooks;
  emitItem(item: TimelineItem): void;
  emitDelta(itemId: string, text: string): void;
  /** Live output of a running tool call, for its card (never stored as such; the tool's result keeps what it keeps). */
  emitOutput(itemId: string, chunk: string): void;
  /** Progress of a running tool call, for its card (never stored). */
  emitProgress?(itemId: string, update: { progress: number; total: number | null; message: string | null }): void;
  /** What the model sees of the session now (CTX-4: kept in memory, read from the database only where it changed). */
  view(sessionId: string): Promise<ViewSnapshot>;
  /** What capabilities add to the system prompt now (the MCP servers' instructions, MCP-8); read every step. */
  systemExtra?(): string;
  /** Before every model step, before the step hooks: compacts the history when it nears the window (CTX-2). Must not throw. */
  beforeStep?(ctx: TurnContext, model: LlmModel): Promise<void>;
  /** After every model step, with the provider's usage for it when reported (CTX-1: the context meter). Must not throw. */
  stepEnded?(usage: Usage | undefined): void | Promise<void>;
}

export interface TurnContext {
  sessionId: string;
  workspace: string;
  turnId: string;
  signal: AbortSignal;
}

/** How often a streaming message is checkpointed to the database (CORE-16). */
const CHECKPOINT_MS = 1_000;

export type Usage = { inputTokens?: number; outputTokens?: number };
export type TurnEnd = { status: "completed" | "stopped" | "failed"; reason: string | null; steps: number; usage?: Usage };

const addUsage = (total: Usage, step: Usage | undefined): Usage => ({
  inputTokens: step?.inputTokens === undefined ? total.inputTokens : (total.inputTokens ?? 0) + step.inputTokens,
  outputTokens: step?.outputTokens === undefined ? total.outputTokens : (total.outputTokens ?? 0) + step.outputTokens,
});

/** Runs one tool call and records it: running row first, result row after (CORE-12). */
export async function runToolCall(deps: TurnDeps, ctx: TurnContext, call: { callId: string; name: string; args: unknown }): Promise<ToolCallItem> {
  const started = await deps.store.items.appendToolCall(ctx.sessionId, { turnId: ctx.turnId, callId: call.callId, name: call.name, args: call.args, startedAt: new Date() });
  deps.emitItem(started);
  const outcome = await deps.runtime.invoke({
    sessionId: ctx.sessionId, workspace: ctx.workspace, callId: call.callId, name: call.name, args: call.args, signal: ctx.signal, turnId: ctx.turnId,
    output: (chunk) => deps.emitOutput(started.id, chunk),
    progress: (update) => deps.emitProgress?.(started.id, update),
  });
  const finished = await deps.store.items.finishToolCall(started.id, {
    status: outcome.status, canonical: outcome.canonical, rendered: outcome.rendered, error: outcome.error, endedAt: outcome.endedAt,
  });
  deps.emitItem(finished);
  return finished;
}

/** Streams one model step into an assistant message that is created on the first text delta. */
async function streamStep(deps: TurnDeps, ctx: TurnContext, model: LlmModel, tools: ToolSpec[]) {
  const messages = (await deps.view(ctx.sessionId)).messages();
  let message: MessageItem | null = null;
  let text = "";
  let lastCheckpoint = Date.now();
  let pending: Promise<unknown> = Promise.resolve();
  const toolCalls: { callId: string; name: string; args: unknown }[] = [];
  let usage: Usage | undefined;
  let reason = "stop";

  const settle = async (state: MessageItem["state"]) => {
    await pending;
    if (!message) return;
    message = await deps.store.items.updateMessage(message.id, { text, state });
    deps.emitItem(message);
  };

  try {
    for await (const event of model.stream({ system: systemPrompt(ctx.workspace, deps.systemExtra?.() ?? ""), messages, tools, signal: ctx.signal })) {
      if (event.type === "text") {
        if (!event.delta) continue;
        if (!message) {
          // Created with its first text, so a crash before the first checkpoint never leaves an empty message.
          text = event.delta;
          message = await deps.store.items.appendMessage(ctx.sessionId, { turnId: ctx.turnId, role: "assistant", text, state: "streaming" });
          deps.emitItem(message);
          continue;
        }
        text += event.delta;
        deps.emitDelta(message.id, event.delta);
        if (Date.now() - lastCheckpoint >= CHECKPOINT_MS) {
          lastCheckpoint = Date.now();
          const id = message.id;
          const snapshot = text;
          pending = pending.then(() => deps.store.items.updateMessage(id, { text: snapshot, state: "streaming" }));
        }
      } else if (event.type === "tool_call") {
        toolCalls.push({ callId: event.id, name: event.name, args: event.args });
      } else {
        reason = event.reason;
        usage = event.usage;
      }
    }
  } catch (error) {
    await settle("interrupted");
    throw error;
  }
  await settle(ctx.signal.aborted ? "interrupted" : "complete");
  return { toolCalls, usage, reason };
}

/** Pre-step hooks (e.g. the skills catalog) add facts the model sees from this step on. */
async function runHooks(deps: TurnDeps, ctx: TurnContext, step: number) {
  await deps.hooks.run({
    sessionId: ctx.sessionId, workspace: ctx.workspace, turnId: ctx.turnId, step, signal: ctx.signal,
    appendFact: async (fact) => {
      const item = await deps.store.items.appendFact(ctx.sessionId, { turnId: ctx.turnId, ...fact });
      deps.emitItem(item);
      return item;
    },
  }, (label, error) => log.error(`step hook ${label} failed: ${messageOf(error)}`, { session: ctx.sessionId }));
}

/** The model loop of one turn (CORE-13): stream, run the requested tools, repeat until done or maxSteps. */
export async function runModelTurn(deps: TurnDeps, ctx: TurnContext, model: LlmModel, maxSteps: number): Promise<TurnEnd> {
  let steps = 0;
  let usage: Usage = {};
  const end = (status: TurnEnd["status"], reason: string | null): TurnEnd => ({ status, reason, steps, usage });
  const stopped = () => end("stopped", stopReason(ctx.signal));
  try {
    while (steps < maxSteps) {
      if (ctx.signal.aborted) return stopped();
      const tools: ToolSpec[] = (await deps.tools.next(ctx.sessionId)).specs;
      steps++;
      await deps.store.turns.setSteps(ctx.turnId, steps);
      await deps.beforeStep?.(ctx, model);
      if (ctx.signal.aborted) return stopped();
      await runHooks(deps, ctx, steps);
      if (ctx.signal.aborted) return stopped();
      const step = await streamStep(deps, ctx, model, tools);
      usage = addUsage(usage, step.usage);
      await deps.stepEnded?.(step.usage);
      if (ctx.signal.aborted) return stopped();
      if (step.reason === "length") return end("failed", "The model hit its output length limit.");
      if (step.toolCalls.length === 0) return end("completed", null);
      for (const call of step.toolCalls) {
        await runToolCall(deps, ctx, call);
        if (ctx.signal.aborted) return stopped();
      }
    }
    return end("completed", `Stopped after the step limit (${maxSteps} steps); raise "max steps" in Settings to let the agent go further.`);
  } catch (error) {
    if (ctx.signal.aborted) return stopped();
    const message = error instanceof HostError ? error.message : `The model call failed: ${messageOf(error)}`;
    return end("failed", message);
  }
}
