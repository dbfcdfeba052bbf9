import { readFileSync } from "node:fs";
import type { WebFetchToolResult, WebSettings } from "@seam/shared";
import { z } from "zod";
import { defineTool, type ToolDef } from "../agent/tool.js";
import { renderFetch } from "./render.js";
import type { WebService } from "./service.js";
import { toolError } from "./tool-error.js";

const description = readFileSync(new URL("./web-fetch.md", import.meta.url), "utf8").trim();

const Input = z.object({
  url: z.string().trim().min(1).max(4096).describe("Absolute http(s) URL of the page to read"),
});

/** `web_fetch({url})` (WEB-7): one page through the selected fetch provider, HTML rendered as Markdown. */
export function webFetchTool(deps: { service: WebService; settings: () => WebSettings }): ToolDef {
  // Stay under the runtime's own cap so our closing notice is never the part it cuts.
  return defineTool({
    name: "web_fetch",
    description,
    capability: "web",
    effect: "network",
    input: Input,
    timeoutMs: deps.settings().fetchTimeoutMs,
    // WEB-7's output cap (default 200,000) replaces the runtime's default; room left for the header and notices.
    maxRenderedChars: deps.settings().fetchMaxChars + 1_000,
    async run(args, ctx) {
      const settings = deps.settings();
      try {
        const { provider, result } = await deps.service.fetch({ url: args.url }, { signal: ctx.signal, sessionId: ctx.sessionId, callId: ctx.callId });
        const canonical: WebFetchToolResult = { provider, result };
        return { canonical, rendered: (await renderFetch(result, settings.fetchMaxChars)).text };
      } catch (error) {
        return toolError(error, "fetch");
      }
    },
  });
}
