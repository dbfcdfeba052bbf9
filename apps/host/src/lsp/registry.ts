import { basename } from "node:path";
import { HostError } from "../core/errors.js";
import type { Disposer } from "../core/scope.js";

/** A provider atom (LSP-2): an id and the set of normalized extensions it answers for. */
export interface ProviderAtom {
  readonly id: string;
  readonly extensions: readonly string[];
}

/** Two claims on one extension: by two providers being registered, or by one of them and a registered one. */
export interface RouteConflict {
  extension: string;
  /** The providers claiming it, the already-registered one first. */
  providers: [string, string];
}

export interface ProviderRegistry {
  /** Conflicts `atoms` would cause (among themselves, and with what is registered); empty when they fit. */
  validate(atoms: readonly ProviderAtom[]): RouteConflict[];
  /**
   * Publishes every atom, or nothing: the whole mapping is validated before any mutation, and any
   * conflict (or invalid extension, or a duplicate id) throws `conflict:lsp`/`bad_input:lsp`. The
   * disposer removes every route of these atoms.
   */
  register(atoms: ProviderAtom | readonly ProviderAtom[]): Disposer;
  /** The provider for a file, chosen by its last lowercased extension (`foo.d.ts` → `.ts`). */
  route(filePath: string): ProviderAtom | undefined;
  providers(): ProviderAtom[];
  /** Fires after every publish and every removal. */
  onChange(fn: () => void): Disposer;
}

const EXTENSION = /^\.[a-z0-9_+-]{1,16}$/;

/** Lowercase with a leading dot; `undefined` for something that cannot be an extension. */
export function normalizeExtension(raw: string): string | undefined {
  const trimmed = raw.trim().toLowerCase();
  const ext = trimmed.startsWith(".") ? trimmed : `.${trimmed}`;
  return EXTENSION.test(ext) ? ext : undefined;
}

/** The last extension of a file name, lowercased, or undefined (`Makefile`, `.bashrc`, `dir/`). */
export function lastExtension(filePath: string): string | undefined {
  const name = basename(filePath);
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return name.slice(dot).toLowerCase();
}

export function conflictMessage(c: RouteConflict): string {
  return `extensions: ${c.extension} is claimed by both "${c.providers[0]}" and "${c.providers[1]}". Remove it from one of them.`;
}

export function createProviderRegistry(): ProviderRegistry {
  /** extension → the provider that owns it. */
  const routes = new Map<string, ProviderAtom>();
  const atoms = new Map<string, ProviderAtom>();
  const listeners = new Set<{ fn: () => void }>();
  const notify = () => {
    for (const { fn } of [...listeners]) {
      try {
        fn();
      } catch {
        // A listener's failure must not undo a publish that already happened.
      }
    }
  };

  /** Normalizes each atom (frozen copies); throws bad_input on an extension that cannot be routed. */
  const normalize = (list: readonly ProviderAtom[]): ProviderAtom[] => list.map((a) => {
    const extensions = new Set<string>();
    for (const raw of a.extensions) {
      const ext = normalizeExtension(raw);
      if (!ext) throw new HostError("bad_input:lsp", `extensions: "${raw}" of "${a.id}" is not a file extension (use one like .ts).`, { reason: "invalid_extension" });
      extensions.add(ext);
    }
    if (extensions.size === 0) throw new HostError("bad_input:lsp", `extensions: "${a.id}" needs at least one file extension.`, { reason: "invalid_extension" });
    return Object.freeze({ id: a.id, extensions: Object.freeze([...extensions].sort()) });
  });

  const conflictsOf = (list: readonly ProviderAtom[]): RouteConflict[] => {
    const claimed = new Map<string, string>([...routes].map(([ext, a]) => [ext, a.id]));
    const out: RouteConflict[] = [];
    for (const a of list) {
      for (const ext of a.extensions) {
        const owner = claimed.get(ext);
        if (owner !== undefined && owner !== a.id) out.push({ extension: ext, providers: [owner, a.id] });
        else claimed.set(ext, a.id);
      }
    }
    return out;
  };

  return {
    validate(list) {
      return conflictsOf(normalize(list));
    },
    register(input) {
      const list = normalize(Array.isArray(input) ? input : [input as ProviderAtom]);
      const seen = new Set<string>();
      for (const a of list) {
        if (atoms.has(a.id) || seen.has(a.id)) {
          throw new HostError("conflict:lsp", `id: a language server "${a.id}" is already registered.`, { reason: "duplicate_provider", id: a.id });
        }
        seen.add(a.id);
      }
      const conflicts = conflictsOf(list);
      if (conflicts.length > 0) {
        throw new HostError("conflict:lsp", conflicts.map(conflictMessage).join(" "), {
          reason: "extension_conflict", extension: conflicts[0]!.extension, providers: conflicts[0]!.providers,
        });
      }
      for (const a of list) {
        atoms.set(a.id, a);
        for (const ext of a.extensions) routes.set(ext, a);
      }
      notify();
      let published = true;
      return () => {
        if (!published) return;
        published = false;
        for (const a of list) {
          if (atoms.get(a.id) !== a) continue;
          atoms.delete(a.id);
          for (const ext of a.extensions) if (routes.get(ext) === a) routes.delete(ext);
        }
        notify();
      };
    },
    route(filePath) {
      const ext = lastExtension(filePath);
      return ext === undefined ? undefined : routes.get(ext);
    },
    providers() {
      return [...atoms.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },
    onChange(fn) {
      const listener = { fn };
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
