import { HostError } from "../core/errors.js";

const BOM = "\uFEFF";

/** How a text file is laid out on disk, kept across edits and rewrites (CODE-1). */
export interface TextForm {
  bom: boolean;
  /** The line ending most lines use ("\n" when there are none). */
  eol: "\n" | "\r\n";
  /** Both endings occur. */
  mixed: boolean;
}

/** The file's text without its BOM, line endings untouched, and its form. */
export interface Decoded { raw: string; form: TextForm }

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder("utf-8", { ignoreBOM: true });

/** Strict: invalid UTF-8 is refused, so an edit never rewrites bytes it could not decode. */
export function decodeText(bytes: Uint8Array, shown: string, options: { strict: boolean }): Decoded {
  let text: string;
  try {
    text = (options.strict ? strict : lenient).decode(bytes);
  } catch {
    throw new HostError("bad_input:workspace", `${shown} is not valid UTF-8 text; edit_file only edits UTF-8 files. Rewrite it with write_file if you must.`, { reason: "binary_file" });
  }
  const bom = text.startsWith(BOM);
  const raw = bom ? text.slice(1) : text;
  return { raw, form: { bom, ...eolOf(raw) } };
}

export function eolOf(text: string): { eol: "\n" | "\r\n"; mixed: boolean } {
  if (!text.includes("\r\n")) return { eol: "\n", mixed: false };
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return { eol: crlf > lf ? "\r\n" : "\n", mixed: crlf > 0 && lf > 0 };
}

/** Text as the model writes it ("\n" line ends, no BOM). */
export const normalise = (text: string): string => (text.startsWith(BOM) ? text.slice(1) : text).replaceAll("\r\n", "\n");

/** "\n"-ended text laid out in `form` (its line ending and BOM). */
export const layOut = (text: string, form: TextForm): string => withBom(form.eol === "\r\n" ? text.replaceAll("\n", "\r\n") : text, form.bom);

export const withBom = (text: string, bom: boolean): string => (bom ? BOM + text : text);

/** Number of lines, as an editor counts them (a final "\n" does not start another line). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

/** 1-based line number of the character at `offset`. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
