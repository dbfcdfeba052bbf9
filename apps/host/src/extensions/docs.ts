import { readFileSync } from "node:fs";

// The extension APIs as extension_inspect shows them (SPEC EXT-1), read from the same declarations
// the runtime implements: api/host-half.d.ts (checked against worker.mjs by docs.test.ts) and
// api/browser-half.d.ts. TS 7 has no JS compiler API, so a small parser reads a deliberately regular
// format. Format rules for those files:
//  1. Top-level statements: exactly one `declare const <global>: <Interface>;` (the root),
//     `interface <Name> { … }` (no extends, no type parameters), `type <Name> = …;`, and `export {};`
//     (it keeps the file a module; skipped). Each but `export {};` has a `/** … */` doc comment.
//  2. Interface members end with `;` and may span lines: methods `name(a: T, b?: T, ...rest: T[]): R;`,
//     properties `[readonly ]name[?]: T;`. Every member has a doc comment. No overloads, index or call
//     signatures, no `;` inside member types.
//  3. A property whose type is exactly the name of an interface in the file is a namespace: its members
//     are listed under the dotted path (`api.tools.register`).
//  4. `//` and `/* */` comments are for maintainers and ignored. Anything else throws, so a declaration
//     the parser would misread cannot slip into the docs silently.

export interface ApiMember {
  /** `api.tools.register`, `seam.call`. */
  path: string;
  /** `api.tools.register(def: ToolDefinition, handler: …): Disposer | null`; properties `readonly seam.root: HTMLElement`. */
  signature: string;
  doc: string;
}

export interface ApiParam {
  name: string;
  type: string;
  optional: boolean;
  rest: boolean;
}

/** A member with its parameters (null for a property), for checks against the runtime. */
export interface ApiDeclaration extends ApiMember {
  params: ApiParam[] | null;
}

export interface ApiDocs {
  host: ApiMember[];
  browser: ApiMember[];
  /** Rendered for the model: the root's doc, every member with its doc, then the types they use. */
  hostText: string;
  browserText: string;
}

let cached: ApiDocs | undefined;

/** Both halves' APIs; the files are read and parsed once. */
export function apiDocs(): ApiDocs {
  if (cached) return cached;
  const read = (file: string) => parseApiDeclarations(readFileSync(new URL(`./api/${file}`, import.meta.url), "utf8"), file);
  const host = read("host-half.d.ts");
  const browser = read("browser-half.d.ts");
  const plain = (ms: ApiDeclaration[]): ApiMember[] => ms.map(({ path, signature, doc }) => ({ path, signature, doc }));
  cached = { host: plain(host.members), browser: plain(browser.members), hostText: host.text, browserText: browser.text };
  return cached;
}

interface Member { name: string; doc: string; readonly: boolean; optional: boolean; params: ApiParam[] | null; type: string }
type Decl =
  | { kind: "const"; name: string; doc: string; type: string }
  | { kind: "interface"; name: string; doc: string; members: Member[] }
  | { kind: "type"; name: string; doc: string; type: string };

const IDENT = "[A-Za-z_$][\\w$]*";

/** Parses one declaration file of the format above; throws `file: line N: …` when it strays. */
export function parseApiDeclarations(source: string, file = "api.d.ts"): { members: ApiDeclaration[]; text: string } {
  const fail = (at: number, why: string): never => {
    throw new Error(`${file}: line ${source.slice(0, at).split("\n").length}: ${why}`);
  };
  const { code, docs } = mask(source);
  const docBefore = (at: number) => {
    const d = docs.findLast((c) => c.end <= at);
    return d && code.slice(d.end, at).trim() === "" ? d.text : fail(at, "missing /** doc comment */");
  };

  const decls: Decl[] = [];
  for (let i = skipSpace(code, 0); i < code.length; i = skipSpace(code, i)) {
    const rest = code.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^export\s*\{\s*\}\s*;/.exec(rest))) {
      i += m[0].length;
    } else if ((m = new RegExp(`^declare\\s+const\\s+(${IDENT})\\s*:\\s*(${IDENT})\\s*;`).exec(rest))) {
      decls.push({ kind: "const", name: m[1]!, doc: docBefore(i), type: m[2]! });
      i += m[0].length;
    } else if ((m = new RegExp(`^interface\\s+(${IDENT})\\s*\\{`).exec(rest))) {
      const open = i + m[0].length;
      const close = topLevel(code, open, "}", code.length);
      if (close < 0) fail(i, `interface ${m[1]} is not closed`);
      decls.push({ kind: "interface", name: m[1]!, doc: docBefore(i), members: parseMembers(code, open, close, docBefore, fail) });
      i = close + 1;
    } else if ((m = new RegExp(`^type\\s+(${IDENT})\\s*=`).exec(rest))) {
      const end = topLevel(code, i + m[0].length, ";", code.length);
      if (end < 0) fail(i, `type ${m[1]} does not end with ";"`);
      decls.push({ kind: "type", name: m[1]!, doc: docBefore(i), type: squash(code.slice(i + m[0].length, end)) });
      i = end + 1;
    } else {
      fail(i, `unexpected "${rest.slice(0, 40).split("\n")[0]}"`);
    }
  }

  const roots = decls.filter((d) => d.kind === "const");
  const root = roots[0];
  if (roots.length !== 1 || !root) return fail(0, "expected exactly one `declare const <global>: <Interface>;`");
  const interfaces = new Map(decls.flatMap((d) => (d.kind === "interface" ? [[d.name, d] as const] : [])));
  const expanded = new Set<string>();
  const members: ApiDeclaration[] = [];
  const expand = (name: string, prefix: string) => {
    const iface = interfaces.get(name);
    if (!iface) return fail(0, `${prefix} is declared as ${name}, which is not an interface of this file`);
    if (expanded.has(name)) return fail(0, `interface ${name} is used as a namespace twice`);
    expanded.add(name);
    for (const m of iface.members) {
      const path = `${prefix}.${m.name}`;
      members.push({ path, signature: signature(path, m), doc: m.doc, params: m.params });
      if (!m.params && interfaces.has(m.type)) expand(m.type, path);
    }
  };
  expand(root.type, root.name);

  const types = decls.filter((d): d is Exclude<Decl, { kind: "const" }> => d.kind !== "const" && !expanded.has(d.name));
  const text = [
    `${comment(root.doc, "")}\ndeclare const ${root.name}: ${root.type};`,
    ...members.map((m) => `${comment(m.doc, "")}\n${m.signature};`),
    "// Types used above",
    ...types.map((d) => `${comment(d.doc, "")}\n${render(d)}`),
  ].join("\n\n");
  return { members, text: `${text}\n` };
}

function parseMembers(code: string, from: number, to: number, docBefore: (at: number) => string, fail: (at: number, why: string) => never): Member[] {
  const members: Member[] = [];
  for (let i = skipSpace(code, from); i < to; i = skipSpace(code, i)) {
    const end = topLevel(code, i, ";", to);
    if (end < 0) fail(i, "a member does not end with \";\"");
    const text = squash(code.slice(i, end));
    const m = new RegExp(`^(readonly\\s+)?(${IDENT})(\\?)?\\s*([(:])`).exec(text);
    if (!m) return fail(i, `cannot read member "${text.slice(0, 40)}"`);
    const name = m[2]!;
    if (members.some((x) => x.name === name)) fail(i, `${name} is declared twice`);
    const member = { name, doc: docBefore(i), readonly: Boolean(m[1]), optional: Boolean(m[3]) };
    if (m[4] === ":") {
      members.push({ ...member, params: null, type: text.slice(m[0].length).trim() });
    } else {
      const open = m[0].length;
      const close = topLevel(text, open, ")", text.length);
      const returns = close < 0 ? null : /^\s*:\s*(.+)$/.exec(text.slice(close + 1));
      if (!returns || member.readonly) return fail(i, `cannot read method "${text.slice(0, 40)}"`);
      members.push({ ...member, params: parseParams(text.slice(open, close), () => fail(i, `cannot read the parameters of ${name}`)), type: returns[1]! });
    }
    i = end + 1;
  }
  return members;
}

function parseParams(list: string, bad: () => never): ApiParam[] {
  const params: ApiParam[] = [];
  for (let i = 0; i < list.length; ) {
    const comma = topLevel(list, i, ",", list.length);
    const text = list.slice(i, comma < 0 ? list.length : comma).trim();
    i = comma < 0 ? list.length : comma + 1;
    if (!text) continue; // a trailing comma
    const m = new RegExp(`^(\\.\\.\\.)?(${IDENT})(\\?)?\\s*:\\s*(.+)$`).exec(text);
    if (!m) return bad();
    params.push({ name: m[2]!, type: m[4]!, optional: Boolean(m[3]), rest: Boolean(m[1]) });
  }
  return params;
}

function signature(path: string, m: Member): string {
  if (!m.params) return `${m.readonly ? "readonly " : ""}${path}${m.optional ? "?" : ""}: ${m.type}`;
  const params = m.params.map((p) => `${p.rest ? "..." : ""}${p.name}${p.optional ? "?" : ""}: ${p.type}`);
  return `${path}(${params.join(", ")}): ${m.type}`;
}

function render(d: Exclude<Decl, { kind: "const" }>): string {
  if (d.kind === "type") return `type ${d.name} = ${d.type};`;
  const body = d.members.map((m) => `${comment(m.doc, "  ")}\n  ${signature(m.name, m)};`);
  return `interface ${d.name} {\n${body.join("\n")}\n}`;
}

/** `/** doc *\/` on one line when short, else a block, indented by `indent`. */
function comment(doc: string, indent: string): string {
  const lines = doc.split("\n");
  if (lines.length === 1) return `${indent}/** ${doc} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} *${l ? ` ${l}` : ""}`), `${indent} */`].join("\n");
}

/**
 * Blanks comments (keeping offsets and newlines, so positions map back to the source) and collects
 * doc comments with their text; string literals are kept and skipped over.
 */
function mask(source: string): { code: string; docs: { end: number; text: string }[] } {
  const out = source.split("");
  const docs: { end: number; text: string }[] = [];
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "/" && source[i + 1] === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === "/" && source[i + 1] === "*") {
      const close = source.indexOf("*/", i + 2);
      if (close < 0) throw new Error("an unclosed /* comment");
      const stop = close + 2;
      if (source[i + 2] === "*" && close > i + 2) docs.push({ end: stop, text: docText(source.slice(i + 3, close)) });
      blank(i, stop);
      i = stop - 1;
    } else if (c === '"' || c === "'" || c === "`") {
      i = stringEnd(source, i);
    }
  }
  return { code: out.join(""), docs };
}

function docText(inner: string): string {
  return inner.split("\n").map((l) => l.replace(/^\s*\* ?/, "").trimEnd()).join("\n").trim();
}

/** Index of the first `stop` character at nesting depth 0 in [from, to), or -1. `=>` is not a bracket. */
function topLevel(text: string, from: number, stop: string, to: number): number {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const c = text[i]!;
    if (depth === 0 && stop.includes(c)) return i;
    if (c === '"' || c === "'" || c === "`") i = stringEnd(text, i);
    else if ("([{<".includes(c)) depth++;
    else if (")]}".includes(c) || (c === ">" && text[i - 1] !== "=")) depth--;
  }
  return -1;
}

function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === text[start]) return i;
  }
  return text.length;
}

const skipSpace = (text: string, i: number) => i + (/^\s*/.exec(text.slice(i))?.[0].length ?? 0);
const squash = (text: string) => text.replace(/\s+/g, " ").trim();
