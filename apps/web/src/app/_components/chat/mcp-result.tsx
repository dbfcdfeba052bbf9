"use client";
import { FileTextIcon, ImageIcon, LinkIcon, Volume2Icon } from "lucide-react";
import { formatBytes } from "@/lib/format";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
/** Base64 that is safe to put in a data: URL. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp|avif|bmp)$/;
const AUDIO_TYPES = /^audio\/[a-z0-9.+-]+$/;

/** The canonical result of an MCP call, if `canonical` is one (`{type: "mcp", content: [...]}`; MCP-6). */
export function mcpContent(canonical: unknown): unknown[] | null {
  return isObj(canonical) && canonical.type === "mcp" && Array.isArray(canonical.content) ? canonical.content : null;
}

/** True when the blocks hold something the text rendering only stands in for (image, audio, resource). */
export function hasRichBlocks(canonical: unknown): boolean {
  return (mcpContent(canonical) ?? []).some((b) => isObj(b) && b.type !== "text");
}

/**
 * An MCP result's content blocks rendered as what they are (UI.md): text as text, images as images,
 * audio with a player, embedded resources as expandable blocks, resource links as their URI.
 * SVG is never rendered inline; unknown blocks fall back to their JSON.
 */
export function McpResultBlocks({ canonical }: { canonical: unknown }) {
  const blocks = mcpContent(canonical);
  if (!blocks || blocks.length === 0) return null;
  return (
    <div data-testid="mcp-result" className="flex flex-col gap-2 rounded-md border bg-background p-2.5 text-[12.5px]">
      {blocks.map((b, i) => (
        <Block key={i} block={b} />
      ))}
    </div>
  );
}

function Block({ block }: { block: unknown }) {
  if (!isObj(block)) return <Json value={block} />;
  const mime = str(block.mimeType) ?? "";
  const data = str(block.data) ?? "";
  switch (block.type) {
    case "text":
      return <p className="whitespace-pre-wrap break-words leading-relaxed">{str(block.text)}</p>;
    case "image":
      if (!IMAGE_TYPES.test(mime) || !BASE64.test(data)) return <Placeholder icon={<ImageIcon />} text={`image (${mime || "unknown type"}), not shown`} />;
      return (
        <figure className="flex flex-col gap-1">
          <img data-testid="mcp-result-image" src={`data:${mime};base64,${data}`} alt="Returned by the tool" className="max-h-80 max-w-full self-start rounded border bg-muted/40 object-contain [image-rendering:auto]" />
          <figcaption className="text-[11px] text-muted-foreground">{mime} · {formatBytes(data.length * 0.75)}</figcaption>
        </figure>
      );
    case "audio":
      if (!AUDIO_TYPES.test(mime) || !BASE64.test(data)) return <Placeholder icon={<Volume2Icon />} text={`audio (${mime || "unknown type"}), not playable`} />;
      // oxlint-disable-next-line jsx-a11y/media-has-caption -- an MCP audio block carries no captions or transcript to offer
      return <audio data-testid="mcp-result-audio" controls src={`data:${mime};base64,${data}`} className="max-w-full" />;
    case "resource": {
      const r = isObj(block.resource) ? block.resource : {};
      const text = str(r.text);
      return (
        <details data-testid="mcp-result-resource" className="rounded border bg-muted/30">
          <summary className="flex cursor-pointer items-center gap-1.5 px-2 py-1.5 select-none [&_svg]:size-3.5">
            <FileTextIcon className="shrink-0 text-muted-foreground" />
            <span className="truncate font-mono text-[12px]">{str(r.uri) ?? "resource"}</span>
            <span className="shrink-0 text-[11px] text-muted-foreground">{str(r.mimeType) ?? ""}{text === undefined && str(r.blob) ? ` · ${formatBytes((str(r.blob) ?? "").length * 0.75)} binary` : ""}</span>
          </summary>
          {text !== undefined && <pre className="scroll-thin max-h-64 overflow-auto border-t p-2 font-mono text-[12px] whitespace-pre-wrap">{text}</pre>}
        </details>
      );
    }
    case "resource_link":
      return <Placeholder icon={<LinkIcon />} text={`${str(block.name) ?? "resource"} — ${str(block.uri) ?? ""}`} />;
    default:
      return <Json value={block} />;
  }
}

function Placeholder({ icon, text }: { icon: React.ReactNode; text: string }) {
  return (
    <div className="flex items-center gap-1.5 text-muted-foreground [&_svg]:size-3.5 [&_svg]:shrink-0">
      {icon}
      <span className="truncate font-mono text-[12px]">{text}</span>
    </div>
  );
}

function Json({ value }: { value: unknown }) {
  return <pre className="overflow-auto font-mono text-[11.5px] text-muted-foreground">{JSON.stringify(value, null, 2)}</pre>;
}
