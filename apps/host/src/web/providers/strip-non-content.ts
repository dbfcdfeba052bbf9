const DROPPED = ["script", "style", "noscript", "template"];
/** `<` + the longest dropped name + the character that must follow it. */
const LOOKAHEAD = 2 + Math.max(...DROPPED.map((t) => t.length));
const CLOSERS = new Map(DROPPED.map((t) => [t, new RegExp(`</${t}`, "gi")]));

/**
 * Scripts, styles, templates and comments are never page content; dropping them first keeps the char
 * budget for text (WEB-8). Streaming: `push()` takes the decoded page piece by piece and returns what
 * is kept so far; a marker split across pieces (`<scr` | `ipt>`, `--` | `>`) is held back until the
 * next piece. Linear (no backtracking regex over a 5 MB page); unclosed ones run to the end.
 */
export class NonContentStripper {
  private pending = "";
  /** What ends the part being dropped: "-->" or a tag name whose `</name…>` closes it. */
  private skipping: string | null = null;

  /** Feeds the next piece (`final` for the last); returns the content it completes. */
  push(piece: string, final = false): string {
    const buf = this.pending + piece;
    this.pending = "";
    const kept: string[] = [];
    let i = 0;
    while (i < buf.length) {
      if (this.skipping === "-->") {
        const close = buf.indexOf("-->", i);
        if (close < 0) return this.hold(buf, final ? buf.length : Math.max(i, buf.length - 2), kept);
        i = close + 3;
        this.skipping = null;
      } else if (this.skipping) {
        const closer = CLOSERS.get(this.skipping)!;
        closer.lastIndex = i;
        const found = closer.exec(buf);
        if (!found) return this.hold(buf, final ? buf.length : Math.max(i, buf.length - this.skipping.length - 1), kept);
        const gt = buf.indexOf(">", found.index);
        if (gt < 0) return this.hold(buf, final ? buf.length : found.index, kept);
        i = gt + 1;
        this.skipping = null;
      } else {
        const lt = buf.indexOf("<", i);
        if (lt < 0) {
          kept.push(buf.slice(i));
          break;
        }
        kept.push(buf.slice(i, lt));
        if (!final && buf.length - lt < LOOKAHEAD) return this.hold(buf, lt, kept);
        const head = buf.slice(lt + 1, lt + LOOKAHEAD).toLowerCase();
        if (head.startsWith("!--")) {
          this.skipping = "-->";
          i = lt + 4;
          continue;
        }
        const tag = DROPPED.find((t) => head.startsWith(t) && /[\s/>]/.test(head.charAt(t.length)));
        if (tag) {
          this.skipping = tag;
          i = lt + 1 + tag.length;
          continue;
        }
        kept.push("<");
        i = lt + 1;
      }
    }
    return kept.join("");
  }

  /** Keeps `buf` from `from` on for the next piece; returns what was kept before it. */
  private hold(buf: string, from: number, kept: string[]): string {
    this.pending = buf.slice(from);
    return kept.join("");
  }
}

/** The whole-string form: one page in, its content out. */
export function stripNonContent(html: string): string {
  return new NonContentStripper().push(html, true);
}
