"use client";
import type { McpPromptCommand, SkillCompletion, ToolInfo } from "@seam/shared";
import { FoldVerticalIcon, MessageSquareTextIcon, SparklesIcon, WrenchIcon } from "lucide-react";
import { Fragment, useEffect, useRef } from "react";
import { cn } from "@/lib/utils";

export interface SlashEntry {
  kind: "command" | "skill" | "prompt" | "tool";
  name: string;
  label: string;
  description: string;
  /** Text that replaces the composer content, and where the cursor goes. */
  insert: string;
  cursor: number;
  /** For `prompt`: the MCP prompt it runs (MCP-9); one with arguments opens their form. */
  prompt?: McpPromptCommand;
}

const GROUPS: Record<SlashEntry["kind"], string> = { command: "Commands", skill: "Skills", prompt: "MCP prompts", tool: "Run a tool directly" };
const ICONS = { command: FoldVerticalIcon, skill: SparklesIcon, prompt: MessageSquareTextIcon, tool: WrenchIcon };

/** Seam's own commands (CTX-2: `/compact [focus]` summarizes the earlier conversation). */
const COMMANDS: SlashEntry[] = [{
  kind: "command",
  name: "compact",
  label: "/compact",
  description: "Summarize the earlier conversation to free context; add what the summary should focus on",
  insert: "/compact ",
  cursor: "/compact ".length,
}];

/**
 * Completions for the text typed so far, or null when the menu should be closed: user-invocable
 * skills (`/name `, SKL-8) first, then Seam's commands (`/compact`), then `/call <tool>`. Once the user types past a command name
 * (a space that is not part of `/call …`), they are writing arguments and the menu closes.
 */
export function slashEntries(text: string, tools: ToolInfo[], skills: SkillCompletion[] = [], prompts: McpPromptCommand[] = []): SlashEntry[] | null {
  if (!text.startsWith("/") || text.includes("\n") || text.includes("{")) return null;
  const query = text.slice(1).toLowerCase().replace(/\s+/g, " ");
  const callish = "call ".startsWith(query) || query.startsWith("call ");
  if (query.includes(" ") && !callish) return null;

  const skillEntries: SlashEntry[] = query.startsWith("call ")
    ? []
    : skills
        .filter((s) => s.name.includes(query))
        // Prefix matches first; otherwise keep the host's order (by name).
        .sort((a, b) => Number(b.name.startsWith(query)) - Number(a.name.startsWith(query)))
        .map((s) => {
          const insert = `/${s.name} `;
          return { kind: "skill", name: s.name, label: `/${s.name}`, description: s.description, insert, cursor: insert.length };
        });

  const toolEntries: SlashEntry[] = tools
    .filter((t) => {
      const label = `call ${t.name.toLowerCase()}`;
      return label.startsWith(query) || (!callish && t.name.toLowerCase().includes(query));
    })
    .map((t) => {
      const insert = `/call ${t.name} {}`;
      return { kind: "tool", name: t.name, label: `/call ${t.name}`, description: t.description, insert, cursor: insert.length - 1 };
    });

  const commandEntries = query.includes(" ") ? [] : COMMANDS.filter((c) => c.name.startsWith(query));
  // MCP prompts of ready servers (MCP-9): `/mcp__<server>__<prompt>`.
  const promptEntries: SlashEntry[] = query.startsWith("call ")
    ? []
    : prompts
        .filter((p) => p.command.toLowerCase().includes(query))
        .map((p) => {
          const insert = `/${p.command} `;
          const args = p.prompt.arguments.map((a) => (a.required ? `${a.name}*` : a.name)).join(" ");
          const description = [p.prompt.title ?? p.prompt.description ?? "", args ? `(${args})` : ""].filter(Boolean).join(" ");
          return { kind: "prompt", name: p.command, label: `/${p.command}`, description, insert, cursor: insert.length, prompt: p };
        });
  return [...skillEntries, ...commandEntries, ...promptEntries, ...toolEntries];
}

/** The DOM id of option `index` in the menu `menuId`, for the composer's `aria-activedescendant`. */
export function slashOptionId(menuId: string, index: number): string {
  return `${menuId}-option-${index}`;
}

export function SlashMenu({
  id,
  entries,
  active,
  onPick,
  onHover,
}: {
  id: string;
  entries: SlashEntry[];
  active: number;
  onPick: (e: SlashEntry) => void;
  onHover: (i: number) => void;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    listRef.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);
  return (
    <div
      data-testid="slash-menu"
      id={id}
      role="listbox"
      aria-label="Commands"
      ref={listRef}
      className="scroll-thin absolute inset-x-0 bottom-full z-20 mb-2 max-h-72 overflow-y-auto rounded-xl border bg-popover p-1 shadow-lg"
    >
      {entries.length === 0 && <div className="px-2 py-2 text-[13px] text-muted-foreground">No matching command, skill or tool.</div>}
      {entries.map((e, i) => {
        const Icon = ICONS[e.kind];
        return (
          <Fragment key={`${e.kind}:${e.name}`}>
            {entries[i - 1]?.kind !== e.kind && (
              <div
                role="presentation"
                className={cn(
                  "px-2 pb-1 pt-1.5 text-[11px] font-medium uppercase tracking-wide text-muted-foreground",
                  i > 0 && "mt-1 border-t pt-2",
                )}
              >
                {GROUPS[e.kind]}
              </div>
            )}
            <div
              id={slashOptionId(id, i)}
              data-testid="slash-item"
              data-kind={e.kind}
              data-name={e.name}
              data-index={i}
              role="option"
              aria-selected={i === active}
              // Focusable for assistive technology only: focus stays in the composer, which names this option
              // as its active descendant, and the mouse-down below keeps it there.
              tabIndex={-1}
              onMouseDown={(ev) => {
                ev.preventDefault();
                onPick(e);
              }}
              onMouseEnter={() => onHover(i)}
              className={cn(
                "flex cursor-pointer items-center gap-2 rounded-lg px-2 py-1.5",
                i === active ? "bg-muted" : "hover:bg-muted/60",
              )}
            >
              <Icon className="size-3.5 shrink-0 text-muted-foreground" aria-hidden />
              <span className="shrink-0 font-mono text-[12.5px]">{e.label}</span>
              <span className="min-w-0 truncate text-xs text-muted-foreground">{e.description}</span>
            </div>
          </Fragment>
        );
      })}
      <div className="mt-1 border-t px-2 pb-0.5 pt-1.5 text-[11px] text-muted-foreground">
        ↑↓ to choose · Enter or Tab to insert · Esc to close
      </div>
    </div>
  );
}
