"use client";
import type { McpReadResult, McpResourceContent } from "@seam/shared";
import { DownloadIcon } from "lucide-react";
import { formatBytes } from "@/lib/format";

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;

/** A read resource's contents (MCP-9): text in monospace, images rendered, other blobs as their size and a download. */
export function ResourcePreview({ result }: { result: McpReadResult }) {
  return (
    <div data-testid="mcp-resource-preview" className="flex flex-col gap-2">
      {result.contents.map((c, i) => <ContentView key={i} content={c} multiple={result.contents.length > 1} />)}
    </div>
  );
}

function ContentView({ content: c, multiple }: { content: McpResourceContent; multiple: boolean }) {
  const head = (
    <div className="flex flex-wrap items-center gap-x-2 text-[11.5px] text-muted-foreground">
      {multiple && <span className="font-mono">{c.uri}</span>}
      <span>{c.mimeType ?? "no type"}</span>
      <span>{formatBytes(c.size)}</span>
      {c.truncated && <span className="text-warning">{c.kind === "text" ? "cut: only the start is shown" : "too large to show here"}</span>}
    </div>
  );
  if (c.kind === "text") {
    return (
      <div className="flex flex-col gap-1">
        {head}
        <pre data-testid="mcp-resource-text" className="scroll-thin max-h-80 overflow-auto rounded-md border bg-background p-2.5 font-mono text-[12px] leading-[1.5] whitespace-pre-wrap break-words">
          {c.text || "(empty)"}
        </pre>
      </div>
    );
  }
  if (c.blob && c.mimeType && IMAGE_TYPES.test(c.mimeType)) {
    return (
      <figure className="flex flex-col gap-1">
        {head}
        {/* eslint-disable-next-line @next/next/no-img-element -- a data URL from the server, not an optimizable asset */}
        <img data-testid="mcp-resource-image" src={`data:${c.mimeType};base64,${c.blob}`} alt={c.uri} className="max-h-80 max-w-full self-start rounded-md border bg-background object-contain" />
      </figure>
    );
  }
  return (
    <div data-testid="mcp-resource-blob" className="flex flex-col gap-1 rounded-md border bg-background p-2.5">
      {head}
      {c.blob ? (
        <a
          className="inline-flex items-center gap-1 self-start text-[12.5px] text-primary hover:underline"
          href={`data:${c.mimeType ?? "application/octet-stream"};base64,${c.blob}`}
          download={c.uri.split("/").pop() || "resource"}
        >
          <DownloadIcon className="size-3.5" /> Download ({formatBytes(c.size)})
        </a>
      ) : (
        <p className="text-[12.5px] text-muted-foreground">Binary contents of {formatBytes(c.size)} are too large to show or download here.</p>
      )}
    </div>
  );
}
