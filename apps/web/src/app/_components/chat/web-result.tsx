"use client";
import {
  WebFetchToolResult, WebSearchToolResult, WebToolError, type ToolCallItem, type WebSource,
} from "@seam/shared";
import { ArrowUpRightIcon, ChevronRightIcon, ImageIcon, ScissorsIcon, SettingsIcon, XIcon } from "lucide-react";
import Link from "next/link";
import { memo, useState, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { Badge } from "@/components/ui/badge";
import { formatPublished } from "@/lib/format";
import { cn } from "@/lib/utils";
import { ExternalLink, ScrollingTable } from "./markdown";
import { ModelTextDetails } from "./model-text-details";

/** A web tool call's canonical result, recognised by tool name and shape (WEB-7). */
export type WebView =
  | { kind: "search"; result: WebSearchToolResult }
  | { kind: "fetch"; result: WebFetchToolResult }
  | { kind: "error"; error: WebToolError["error"] };

export function webViewOf(call: Pick<ToolCallItem, "name" | "status" | "canonical">): WebView | null {
  if (call.name !== "web_search" && call.name !== "web_fetch") return null;
  if (call.status === "running" || call.canonical == null) return null;
  const failed = WebToolError.safeParse(call.canonical);
  if (failed.success) return { kind: "error", error: failed.data.error };
  if (call.name === "web_search") {
    const r = WebSearchToolResult.safeParse(call.canonical);
    return r.success ? { kind: "search", result: r.data } : null;
  }
  const r = WebFetchToolResult.safeParse(call.canonical);
  return r.success ? { kind: "fetch", result: r.data } : null;
}

/**
 * The Result tab of a web tool card: search results as linked sources, fetched pages as a status line
 * and a collapsible Markdown body, failures as their code and message. `modelText` is the plain text
 * the model saw (the card's result pane), kept one click away.
 */
export function WebResult({ view, rendered, modelText }: { view: WebView; rendered: string | null; modelText: ReactNode }) {
  switch (view.kind) {
    case "search":
      return <SearchResult result={view.result} modelText={modelText} />;
    case "fetch":
      return <FetchResult result={view.result} rendered={rendered} modelText={modelText} />;
    case "error":
      return <WebError error={view.error} modelText={modelText} />;
  }
}

function SearchResult({ result, modelText }: { result: WebSearchToolResult; modelText: ReactNode }) {
  const answers = result.results.filter((r) => r.result.content?.trim());
  const several = result.results.length > 1;
  const providers = [...new Set(result.results.map((r) => r.provider))];
  return (
    <div data-testid="web-search-result" className="flex flex-col gap-2.5 rounded-md border bg-background p-2.5">
      {answers.map((r, i) => (
        <div key={i} data-testid="web-answer" className="flex flex-col gap-1">
          {several && <span className="text-[11.5px] font-medium text-muted-foreground">“{r.query}”</span>}
          <WebMarkdown text={r.result.content ?? ""} />
        </div>
      ))}
      <div className={cn("flex flex-col gap-1.5", answers.length > 0 && "border-t pt-2.5")}>
        <div className="flex items-baseline justify-between gap-2 text-[11.5px] text-muted-foreground">
          <span className="font-medium">{result.sources.length === 0 ? "No results found." : `Sources · ${result.sources.length}`}</span>
          {providers.length > 0 && <span>via {providers.join(", ")}</span>}
        </div>
        {result.sources.length > 0 && (
          <ol className="flex flex-col gap-2">
            {result.sources.map((s, i) => (
              <SourceItem key={`${i}:${s.url}`} source={s} n={i + 1} />
            ))}
          </ol>
        )}
        {result.truncated && (
          <p data-testid="web-capped" className="flex items-center gap-1.5 text-[11.5px] text-muted-foreground">
            <ScissorsIcon className="size-3 shrink-0" />
            Capped at {result.sources.length} sources; more were found. The limit is “Sources per call” in Settings → Web.
          </p>
        )}
      </div>
      <ModelTextDetails>{modelText}</ModelTextDetails>
    </div>
  );
}

function SourceItem({ source, n }: { source: WebSource; n: number }) {
  const host = hostnameOf(source.url);
  const href = safeHref(source.url);
  const label = source.title?.trim() || host || source.url;
  const date = source.publishedAt ? formatPublished(source.publishedAt) : null;
  return (
    <li className="flex gap-2 text-[12.5px] leading-snug">
      <span className="mt-px w-4 shrink-0 text-right font-mono text-[11px] text-muted-foreground tabular-nums">{n}</span>
      <div className="flex min-w-0 flex-col gap-0.5">
        {href ? (
          <a
            data-testid="web-source"
            href={href}
            target="_blank"
            rel="noreferrer noopener"
            className="group/src inline-flex min-w-0 items-baseline gap-1 font-medium text-primary hover:underline"
          >
            <span className="truncate">{label}</span>
            <ArrowUpRightIcon className="size-3 shrink-0 self-center opacity-0 transition-opacity group-hover/src:opacity-100" />
          </a>
        ) : (
          <span data-testid="web-source" className="truncate font-medium">
            {label}
          </span>
        )}
        <span className="truncate text-[11.5px] text-muted-foreground">
          <span className="font-mono">{source.title?.trim() ? host || source.url : shortUrl(source.url)}</span>
          {date && <span> · {date}</span>}
        </span>
        {source.snippet && <p className="line-clamp-3 text-[12px] text-foreground/80">{source.snippet}</p>}
      </div>
    </li>
  );
}

function FetchResult({ result: { provider, result }, rendered, modelText }: { result: WebFetchToolResult; rendered: string | null; modelText: ReactNode }) {
  const [raw, setRaw] = useState(false);
  const href = safeHref(result.url);
  const status = result.statusCode;
  const tone = status >= 200 && status < 300 ? "success" : status >= 500 ? "danger" : status >= 400 ? "warning" : "neutral";
  // What the model read, without the "Fetched … (HTTP …)" header line the status row already shows.
  const body = rendered !== null ? rendered.replace(/^Fetched [^\n]*\n\n?/, "") : result.body.content;
  const outputCut = rendered !== null && /\[Output cut at [\d,]+ characters/.test(rendered);
  return (
    <div data-testid="web-fetch-result" className="flex flex-col gap-2 rounded-md border bg-background p-2.5">
      <div className="flex min-w-0 flex-wrap items-center gap-1.5 text-[12px]">
        <Badge tone={tone} data-testid="web-fetch-status" className="font-mono tabular-nums">
          HTTP {status}
        </Badge>
        <Badge tone="outline">{result.body.kind === "html" ? "HTML → Markdown" : "text"}</Badge>
        {href ? (
          <a data-testid="web-fetch-url" href={href} target="_blank" rel="noreferrer noopener" className="min-w-0 flex-1 truncate font-mono text-[12px] text-primary hover:underline" title={result.url}>
            {result.url}
          </a>
        ) : (
          <span data-testid="web-fetch-url" className="min-w-0 flex-1 truncate font-mono text-[12px]">
            {result.url}
          </span>
        )}
        <span className="shrink-0 text-[11.5px] text-muted-foreground">via {provider}</span>
      </div>
      {(result.truncated || outputCut) && (
        <p data-testid="web-fetch-truncated" className="flex items-center gap-1.5 text-[11.5px] text-warning">
          <ScissorsIcon className="size-3 shrink-0" />
          {result.truncated ? "The page is longer than the fetch limit; only its beginning was read." : "The text was cut at “Characters shown” (Settings → Web)."}
        </p>
      )}
      <details open className="group/body rounded-md border">
        <summary className="flex cursor-pointer items-center gap-1.5 px-2 py-1.5 text-[12px] select-none">
          <ChevronRightIcon className="size-3.5 shrink-0 text-muted-foreground transition-transform group-open/body:rotate-90" />
          <span className="font-medium">Page content</span>
          <span className="text-muted-foreground">· {body.length.toLocaleString("en-US")} characters as the model read them</span>
          <span className="ml-auto inline-flex rounded-md bg-muted p-0.5">
            <ToggleButton active={!raw} onClick={() => setRaw(false)} testId="web-fetch-rendered-toggle">
              Rendered
            </ToggleButton>
            <ToggleButton active={raw} onClick={() => setRaw(true)} testId="web-fetch-raw-toggle">
              Raw
            </ToggleButton>
          </span>
        </summary>
        <div className="border-t p-2.5">
          <div data-testid="web-fetch-body" className={cn("scroll-thin max-h-96 overflow-auto", raw && "hidden")}>
            {result.body.kind === "html" ? (
              <WebMarkdown text={body} />
            ) : (
              <pre className="font-mono text-[12px] leading-[1.55] whitespace-pre-wrap break-words">{body}</pre>
            )}
          </div>
          <div className={cn(!raw && "hidden")}>{modelText}</div>
        </div>
      </details>
    </div>
  );
}

/** A view switch inside the `<summary>`: its click must not also open or close the details. */
function ToggleButton({ active, onClick, testId, children }: { active: boolean; onClick: () => void; testId: string; children: ReactNode }) {
  return (
    <button
      type="button"
      data-testid={testId}
      aria-pressed={active}
      onClick={(e) => {
        e.preventDefault();
        onClick();
      }}
      className={cn(
        "cursor-pointer rounded px-1.5 py-0.5 text-[11px] font-medium text-muted-foreground hover:text-foreground",
        active && "bg-card text-foreground shadow-xs",
      )}
    >
      {children}
    </button>
  );
}

/** What to do about a failed web call, in words (the host's message says what happened). */
const WHAT_TO_DO: Record<string, string> = {
  ambiguous_provider: "Several providers are available and none is chosen — Seam never picks the first. Choose one in Settings → Web.",
  no_provider_available: "No provider can be used. Give one its API key (host environment or secrets file) and check Settings → Web.",
  provider_unavailable: "The chosen provider is missing its key or configuration. Settings → Web shows what is wrong.",
  provider_not_found: "The configured provider does not exist. Choose another one in Settings → Web.",
  blocked_url: "The SSRF guard refused a private, local or metadata address before connecting. Add the host to the fetch allowlist in Settings → Web only if the agent should read it.",
  blocked_redirect: "The page redirected to another origin; fetch the target URL directly if it is wanted.",
  timeout: "The request took longer than the timeout in Settings → Web.",
  too_large: "The page is larger than the fetch limit.",
  unsupported_content_type: "web_fetch reads text pages only (HTML, text, JSON, XML, Markdown).",
  invalid_url: "Only absolute http(s) URLs without credentials can be fetched.",
  provider_failed: "The provider could not be reached or refused the request; a probe in Settings → Web shows whether it works now.",
  invalid_response: "The provider answered with something unexpected; a probe in Settings → Web shows whether it works now.",
};

const SETTINGS_CODES = new Set(["ambiguous_provider", "no_provider_available", "provider_unavailable", "provider_not_found", "blocked_url", "provider_failed", "invalid_response"]);

function WebError({ error, modelText }: { error: WebToolError["error"]; modelText: ReactNode }) {
  const todo = WHAT_TO_DO[error.code];
  return (
    <div data-testid="web-tool-error" data-code={error.code} className="flex flex-col gap-2 rounded-md border border-destructive/25 bg-destructive-soft/60 p-2.5 text-[12.5px]">
      <div className="flex items-start gap-2">
        <XIcon className="mt-0.5 size-3.5 shrink-0 text-destructive" />
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-1.5">
            <Badge tone="danger" data-testid="web-error-code" className="font-mono">
              {error.code}
            </Badge>
            <span className="text-[11.5px] text-muted-foreground">
              {error.kind === "search" ? "web_search" : "web_fetch"}
              {error.provider ? ` · ${error.kind} provider ${error.provider}` : ""}
            </span>
          </div>
          <p data-testid="web-error-message" className="break-words leading-relaxed">
            {error.message}
          </p>
          {todo && <p className="text-muted-foreground">{todo}</p>}
          {SETTINGS_CODES.has(error.code) && (
            <Link href="/settings#web" className="inline-flex w-fit items-center gap-1 text-[12px] font-medium text-primary hover:underline">
              <SettingsIcon className="size-3.5" /> Open Settings → Web
            </Link>
          )}
        </div>
      </div>
      <ModelTextDetails>{modelText}</ModelTextDetails>
    </div>
  );
}


const markdownComponents: Components = {
  a({ children, href }) {
    const safe = href ? safeHref(href) : null;
    return safe ? <ExternalLink href={safe}>{children}</ExternalLink> : <span>{children}</span>;
  },
  // Never load a fetched page's images from the browser: a page must not learn the user opened the card.
  img({ alt }) {
    return (
      <span className="inline-flex items-center gap-1 rounded bg-muted px-1 text-[11px] text-muted-foreground not-prose">
        <ImageIcon className="size-3" /> {alt || "image"}
      </span>
    );
  },
  table: ScrollingTable,
};

const remarkPlugins = [remarkGfm];

/** Compact GFM for answers and fetched pages inside a tool card. */
const WebMarkdown = memo(function WebMarkdown({ text }: { text: string }) {
  return (
    <div className="prose prose-sm prose-neutral max-w-none text-[13px] leading-relaxed dark:prose-invert prose-headings:font-semibold prose-headings:tracking-tight prose-h1:text-base prose-h2:text-[14px] prose-h3:text-[13px] prose-p:my-1.5 prose-ul:my-1.5 prose-ol:my-1.5 prose-li:my-0 prose-code:rounded prose-code:bg-muted prose-code:px-1 prose-code:font-normal prose-code:before:content-none prose-code:after:content-none prose-a:text-primary prose-a:no-underline hover:prose-a:underline prose-pre:bg-code prose-pre:text-foreground prose-table:my-2 prose-table:text-[12.5px] prose-th:text-left prose-th:py-1 prose-td:py-1">
      <Markdown remarkPlugins={remarkPlugins} components={markdownComponents}>
        {text}
      </Markdown>
    </div>
  );
});

function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}

/** `host/path` without the scheme, `www.` and a trailing slash. */
function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname.replace(/^www\./, "")}${u.pathname === "/" ? "" : u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
