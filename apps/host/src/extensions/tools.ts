import { z } from "zod";
import { EXTENSION_CODE_MAX, ExtensionName } from "@seam/shared";
import { defineTool, type ToolDef } from "../agent/tool.js";
import type { ToolRegistry } from "../agent/registry.js";
import { apiDocs } from "./docs.js";
import type { Extensions } from "./service.js";

const code = z.string().max(EXTENSION_CODE_MAX, `A half may have at most ${EXTENSION_CODE_MAX} characters`);
/** A run waits for a person's answer as long as the turn lasts (EXT-5); the turn's stop cancels it. */
const WAIT_FOR_PERSON_MS = 24 * 60 * 60 * 1000;

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The five model-facing tools of EXT-1. Refusals carry the closed EXT-1 codes as their error code. */
export function extensionTools(ext: Extensions, registry: ToolRegistry): ToolDef[] {
  return [
    defineTool({
      name: "extension_inspect",
      capability: "extensions",
      description:
        "Shows what an extension can use — the host-half API (`api`: tools, events, services, web, log, timers, the browser bridge), the services available in this session, and the browser-half API (`seam`), with signatures and doc comments — plus this session's extensions with their versions, run state and last failure. Call it before writing an extension.",
      input: z.strictObject({}),
      async run(_args, ctx) {
        const docs = apiDocs();
        const packages = await ext.packages(ctx.sessionId);
        const extensionTools = registry.visible(ctx.sessionId).filter((t) => t.capability === "extensions" && !t.name.startsWith("extension_"));
        const services = ext.services(ctx.sessionId);
        const canonical = {
          services,
          hostApi: docs.host,
          browserApi: docs.browser,
          events: {
            emit: "api.events.emit(name, payload) reaches the host halves of the other extensions running in this session.",
            host: ["extension.started {name, version}", "extension.stopped {name, version, state}"],
          },
          tools: extensionTools.map((t) => ({ name: t.name, description: t.description })),
          packages: packages.map(({ pkg, run }) => ({
            name: pkg.name,
            revision: pkg.versions.at(-1)?.version ?? 0,
            purpose: pkg.versions.at(-1)?.purpose ?? "",
            halves: { host: pkg.versions.at(-1)?.hasHost ?? false, browser: pkg.versions.at(-1)?.hasBrowser ?? false },
            grant: pkg.grant ? `future versions allowed since v${pkg.grant.fromVersion}` : null,
            run: run ? { version: run.version, state: run.state, browser: run.browser, tools: run.tools, lastFailure: run.lastFailure ?? run.browserFailure } : null,
          })),
        };
        const rendered = [
          "# Host half (a classic script; its only global is `api`)",
          docs.hostText.trim(),
          "",
          "# Browser half (a classic script in a sandboxed iframe; its only bridge is `seam`)",
          docs.browserText.trim(),
          "",
          "# Services (api.services.call(name, method, args); `web` also as api.web)",
          services.map((s) => `- ${s.name} (${s.provider === "host" ? "the host" : `extension ${s.provider}`}): ${s.methods.join(", ")}`).join("\n"),
          "",
          "# Events",
          canonical.events.emit,
          `Host events: ${canonical.events.host.join("; ")}.`,
          "",
          "# This session's extension tools",
          canonical.tools.length ? canonical.tools.map((t) => `- ${t.name}: ${t.description}`).join("\n") : "(none)",
          "",
          "# This session's extensions",
          canonical.packages.length ? json(canonical.packages) : "(none defined yet)",
        ].join("\n");
        return { canonical, rendered };
      },
    }),
    defineTool({
      name: "extension_define",
      capability: "extensions",
      effect: "extension",
      description:
        "Defines (or adds a new version of) an extension of this session: a host half (logic: tools, events, handlers for its browser half) and/or a browser half (UI rendered in the user's page). Both halves are syntax-checked before anything is recorded; nothing runs until extension_run and the user's approval. Each define of an existing name appends an immutable version.",
      input: z.strictObject({
        name: ExtensionName.describe("Package name, e.g. counter-widget"),
        purpose: z.string().trim().min(1, "Say in a sentence what it is for; the user sees it when asked to approve").max(500),
        host: code.optional().describe("Host-half source: a classic script using the global `api` (see extension_inspect)"),
        browser: code.optional().describe("Browser-half source: a classic script using the global `seam` and DOM APIs"),
      }),
      async run(args, ctx) {
        const out = await ext.define(ctx.sessionId, args);
        const rendered = out.created
          ? `Defined ${out.name} v${out.version} (${out.halves.join(" + ")} half). Run it with extension_run; the user will be asked to approve.`
          : `${out.name} v${out.version} already has exactly this definition; no new version was recorded.`;
        return { canonical: out, rendered };
      },
    }),
    defineTool({
      name: "extension_run",
      capability: "extensions",
      effect: "extension",
      timeoutMs: WAIT_FOR_PERSON_MS,
      description:
        "Runs a version of one of this session's extensions (the latest by default), after the user approves it (unless they allowed future versions of this package). Replaces the package's running version. Its tools then appear in this session; its browser half renders in the user's page.",
      input: z.strictObject({
        name: ExtensionName,
        version: z.number().int().positive().optional().describe("Defaults to the latest version"),
      }),
      async run(args, ctx) {
        const out = await ext.run(ctx.sessionId, args, ctx.signal);
        const browser = out.browser === "none" ? "" : out.browser === "rendered"
          ? " Its browser half rendered in the page."
          : " Its browser half renders when the user has this session open.";
        const tools = out.tools.length ? ` Its tools: ${out.tools.join(", ")}.` : "";
        return { canonical: out, rendered: `${out.name} v${out.version} is running.${tools}${browser}` };
      },
    }),
    byName(
      "extension_stop",
      "Stops a running extension of this session: its tools disappear and its browser half is withdrawn. The definition stays and can be run again.",
      (sessionId, name) => ext.stop(sessionId, name),
      (out) => `${out.name} v${out.version} stopped.`,
    ),
    byName(
      "extension_undefine",
      "Forgets an extension of this session with all its versions, stopping it first if it runs.",
      (sessionId, name) => ext.undefine(sessionId, name),
      (out) => `${out.name} and its ${out.versions} version(s) are forgotten${out.stopped ? " (it was stopped first)" : ""}.`,
    ),
  ];
}

/** A tool that changes one extension of the session, given only its name; the service's answer is the canonical result. */
function byName<T>(name: string, description: string, act: (sessionId: string, name: string) => Promise<T>, render: (out: T) => string): ToolDef {
  return defineTool({
    name,
    capability: "extensions",
    effect: "extension",
    description,
    input: z.strictObject({ name: ExtensionName }),
    async run(args, ctx) {
      const out = await act(ctx.sessionId, args.name);
      return { canonical: out, rendered: render(out) };
    },
  });
}
