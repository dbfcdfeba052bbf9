import type { WebKind, WebToolError } from "@seam/shared";
import type { ToolResult } from "../agent/tool.js";
import { messageOf } from "../core/errors.js";
import { codeOf, providerOf } from "./provider.js";

const HINTS: Record<string, string> = {
  ambiguous_provider: "This is a deployment setting, not something to retry: tell the user to choose a provider in Settings → Web.",
  no_provider_available: "No provider is configured; tell the user to configure one in Settings → Web.",
  provider_not_found: "The configured provider does not exist; tell the user to fix it in Settings → Web.",
  provider_unavailable: "The configured provider is missing credentials or configuration; tell the user.",
  blocked_url: "Do not retry this address; private and local network addresses are not reachable from web_fetch.",
  blocked_redirect: "If the redirect target is what you want, call web_fetch again with that URL.",
  unsupported_content_type: "web_fetch only reads text pages (HTML, text, JSON, XML, markdown).",
  too_large: "The page is too large to read; look for a smaller page or a more specific URL.",
  timeout: "The request took too long; you may retry once or try another source.",
};

/** A failed web call as the model and the UI see it: the open code, the provider, and what to do (WEB-7). */
export function toolError(error: unknown, kind: WebKind): ToolResult {
  const code = codeOf(error);
  const message = messageOf(error);
  const provider = providerOf(error);
  const canonical: WebToolError = { error: { code, message, provider, kind } };
  const hint = HINTS[code];
  const rendered = `Error [${code}]${provider ? ` (${kind} provider: ${provider})` : ""}: ${message}${hint ? `\n${hint}` : ""}`;
  return { canonical, rendered, error: { code, message } };
}
