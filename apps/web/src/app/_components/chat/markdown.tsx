"use client";
import { Children, isValidElement, memo, type ComponentProps, type ReactElement, type ReactNode } from "react";
import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./code-block";

function textOf(node: unknown): string {
  if (typeof node === "string" || typeof node === "number") return String(node);
  if (Array.isArray(node)) return node.map(textOf).join("");
  if (isValidElement(node)) return textOf((node.props as { children?: unknown }).children);
  return "";
}

/** Links in Markdown open in a new tab, without telling the target where they came from. */
export function ExternalLink({ href, children }: { href?: string; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  );
}

/** A wide Markdown table scrolls sideways instead of widening the message. */
export function ScrollingTable({ children }: { children?: ReactNode }) {
  return (
    <div className="scroll-thin overflow-x-auto">
      <table>{children}</table>
    </div>
  );
}

const components: Components = {
  pre({ children }) {
    const child = Children.toArray(children)[0];
    if (isValidElement(child)) {
      const props = (child as ReactElement<ComponentProps<"code">>).props;
      const lang = /language-([\w+#.-]+)/.exec(props.className ?? "")?.[1];
      return <CodeBlock code={textOf(props.children)} lang={lang} />;
    }
    return <pre>{children}</pre>;
  },
  a: ExternalLink,
  table: ScrollingTable,
};

const remarkPlugins = [remarkGfm];

/** Assistant Markdown (GFM). Memoised on the text so unchanged messages don't re-parse while another streams. */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="prose prose-neutral max-w-none text-[14.5px] leading-[1.7] dark:prose-invert prose-headings:font-semibold prose-headings:tracking-tight prose-p:my-2.5 prose-ul:my-2.5 prose-ol:my-2.5 prose-li:my-0.5 prose-code:rounded prose-code:bg-muted prose-code:px-1 prose-code:py-0.5 prose-code:font-mono prose-code:text-[0.88em] prose-code:font-normal prose-code:before:content-none prose-code:after:content-none prose-a:text-primary prose-a:no-underline hover:prose-a:underline prose-pre:my-0 prose-h1:text-xl prose-h2:mb-2 prose-h2:mt-5 prose-h2:text-lg prose-h3:mb-1.5 prose-h3:mt-4 prose-h3:text-base prose-table:my-3 prose-table:text-[13.5px] prose-th:text-left prose-blockquote:font-normal prose-blockquote:not-italic prose-blockquote:text-muted-foreground [&_blockquote_p]:before:content-none [&_blockquote_p]:after:content-none">
      <Markdown remarkPlugins={remarkPlugins} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
