import { COMPACTION_FACT, SKILLS_CATALOG_FACT, SkillsCatalogPayload, type FactItem, type TimelineItem } from "@seam/shared";
import type { StepContext, StepHook } from "../agent/hooks.js";
import type { Observation } from "./registry.js";
import { catalogEntries, digestOf, renderCatalog } from "./render.js";

export interface CatalogHookDeps {
  list(cwd: string, scopes: readonly string[]): Promise<Observation>;
  /** The catalog the model currently sees in the session and its digest, or null (the model view, CTX-4). */
  visible(sessionId: string): Promise<{ digest: string | null } | null>;
  scopes(sessionId: string): readonly string[];
}

/** The catalog fact the model currently sees: the last one, unless a later compaction hid it. */
export function visibleCatalog(items: readonly TimelineItem[]): { fact: FactItem; payload: SkillsCatalogPayload | null } | null {
  let catalog: FactItem | null = null;
  let compaction = -1;
  for (const item of items) {
    if (item.kind !== "fact") continue;
    if (item.factKind === SKILLS_CATALOG_FACT) catalog = item;
    else if (item.factKind === COMPACTION_FACT) compaction = item.seq;
  }
  if (!catalog || catalog.seq < compaction) return null;
  const parsed = SkillsCatalogPayload.safeParse(catalog.payload);
  return { fact: catalog, payload: parsed.success ? parsed.data : null };
}

/**
 * Pre-step hook for the durable catalog (SKL-6). Before every model step it renders what the model
 * should see; it appends a fact only when that differs from the visible catalog: first non-empty
 * catalog, a full replacement when the digest changes, an explicit empty replacement when every skill
 * is gone, a re-established catalog after compaction. An incomplete observation publishes nothing.
 */
export function catalogHook(deps: CatalogHookDeps): StepHook {
  return async (ctx: StepContext) => {
    const observation = await deps.list(ctx.workspace, deps.scopes(ctx.sessionId));
    if (!observation.complete || ctx.signal.aborted) return;
    const entries = catalogEntries(observation.candidates);
    const text = renderCatalog(entries);
    const digest = digestOf(text);
    const visible = await deps.visible(ctx.sessionId);
    if (visible ? visible.digest === digest : entries.length === 0) return;
    if (ctx.signal.aborted) return;
    await ctx.appendFact({ factKind: SKILLS_CATALOG_FACT, text, payload: { digest, names: entries.map((e) => e.name) } satisfies SkillsCatalogPayload });
  };
}
