import type { APICallError, RetryError } from "ai";
import { HostError } from "../core/errors.js";

/**
 * The AI SDK's error classes, loaded with the provider adapters (`llm.ts` awaits this before a model
 * step): `ai` costs ~0.25 s to import, so the host does not load it at start. Before it is loaded no
 * SDK code has run, so no error can be one of its classes.
 */
let classes: { APICallError: typeof APICallError; RetryError: typeof RetryError } | undefined;
export async function loadFailureClasses(): Promise<void> {
  if (classes) return;
  const { APICallError, RetryError } = await import("ai");
  classes = { APICallError, RetryError };
}

/** What a failure message may mention. `key` is only used to scrub it from provider text. */
export interface FailureContext {
  baseURL: string;
  model: string;
  keyEnv: string | undefined;
  key: string | undefined;
}

export const aborted = () => new HostError("closed:llm", "The model call was stopped.", { reason: "aborted" });

const isAbortLike = (e: unknown) => e instanceof Error && (e.name === "AbortError" || e.name === "ResponseAborted");

/** Provider text can echo request data; never let the key through, and keep it short. */
function scrub(text: string, key: string | undefined): string {
  const clean = key && key.length >= 4 ? text.split(key).join("***") : text;
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

function networkCode(e: APICallError): string | undefined {
  let cause: unknown = e.cause;
  for (let depth = 0; cause && depth < 4; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

function fromApiCall(e: APICallError, ctx: FailureContext): HostError {
  const status = e.statusCode;
  const where = ctx.baseURL;
  // `data` is set when the body had the provider's error shape; otherwise the raw body says more than the status text.
  const detail = scrub(e.data === undefined && e.responseBody ? e.responseBody : e.message, ctx.key);
  const data = (reason: string) => ({ reason, status, url: where });
  if (status === undefined) {
    const code = networkCode(e);
    return new HostError("unavailable:llm", `Cannot reach the model endpoint at ${where}${code ? ` (${code})` : ""}. Check the base URL and that the server is running.`, data("network"));
  }
  if (status === 401 || status === 403) {
    // The provider's own text is left out: some echo part of the key.
    const check = ctx.keyEnv ? `Check ${ctx.keyEnv}.` : "Set an API key name in Settings → Model.";
    const what = status === 401 ? "refused the API key" : "denied access with this API key";
    return new HostError("unavailable:llm", `The model endpoint ${what} (${status}). ${check}`, data("unauthorized"));
  }
  if (status === 404) {
    return new HostError("unavailable:llm", `The model endpoint returned 404 for model "${ctx.model}" at ${where}. Check the base URL and the model id. (${detail})`, data("not_found"));
  }
  if (status === 429) {
    return new HostError("unavailable:llm", `The model endpoint is rate-limiting requests (429). Wait a moment and try again, or check the account's quota. (${detail})`, data("rate_limited"));
  }
  if (status >= 500) {
    return new HostError("unavailable:llm", `The model endpoint failed with HTTP ${status}. Try again later. (${detail})`, data("server_error"));
  }
  return new HostError("unavailable:llm", `The model endpoint rejected the request (HTTP ${status}): ${detail}`, data("bad_request"));
}

/**
 * Maps anything the AI SDK throws or streams as an error to one HostError whose message says what
 * to do. The original error is not attached as `cause`: it carries request and response bodies.
 */
export function toLlmError(error: unknown, ctx: FailureContext, signal: AbortSignal): HostError {
  if (signal.aborted || isAbortLike(error)) return aborted();
  if (error instanceof HostError) return error;
  const inner = classes?.RetryError.isInstance(error) ? error.lastError : error;
  if (classes?.APICallError.isInstance(inner)) return fromApiCall(inner, ctx);
  if (inner instanceof Error) {
    return new HostError("unavailable:llm", `The model endpoint sent a response Seam could not use: ${scrub(inner.message, ctx.key)}`, { reason: "bad_response", url: ctx.baseURL });
  }
  // Mid-stream error payloads arrive as plain objects, e.g. {message, type, code}.
  const message = typeof inner === "object" && inner !== null && "message" in inner ? String(inner.message) : JSON.stringify(inner);
  return new HostError("unavailable:llm", `The model endpoint reported an error mid-stream: ${scrub(message ?? "unknown error", ctx.key)}`, { reason: "stream_error", url: ctx.baseURL });
}
