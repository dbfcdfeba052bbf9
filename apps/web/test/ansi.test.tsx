// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ansiSegments, countLines, lastLines, terminalText } from "@/app/_components/terminal/ansi";
import { followAfterScroll } from "@/app/_components/terminal/follow";
import { AnsiText, TerminalBlock } from "@/app/_components/terminal/terminal-block";

afterEach(cleanup);

describe("ansiSegments", () => {
  it("turns SGR colours and bold into styles and drops the escape codes", () => {
    const segs = ansiSegments("plain \u001b[31mred\u001b[0m \u001b[1;32mbold green\u001b[0m");
    expect(segs.map((s) => s.text).join("")).toBe("plain red bold green");
    expect(segs.find((s) => s.text === "red")?.style?.color).toMatch(/^rgb\(/);
    const green = segs.find((s) => s.text === "bold green");
    expect(green?.style?.fontWeight).toBe(600);
    expect(segs[0]?.style).toBeUndefined();
  });

  it("keeps the last version of a line rewritten with carriage returns", () => {
    expect(terminalText("progress 10%\rprogress 90%\rdone\r\nnext\n")).toBe("done\nnext\n");
  });
});

describe("AnsiText", () => {
  it("renders HTML in the output as text, never as markup", () => {
    const { container } = render(
      <pre data-testid="out">
        <AnsiText text={'\u001b[33m<img src=x onerror="alert(1)"><script>alert(2)</script>\u001b[0m & done'} />
      </pre>,
    );
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("script")).toBeNull();
    expect(screen.getByTestId("out").textContent).toBe('<img src=x onerror="alert(1)"><script>alert(2)</script> & done');
    expect(container.querySelector("span[style]")).not.toBeNull();
  });
});

describe("TerminalBlock", () => {
  it("shows the tail of long output with a way to see all of it", () => {
    const text = Array.from({ length: 2_500 }, (_, i) => `line ${i + 1}`).join("\n");
    render(<TerminalBlock text={text} />);
    expect(screen.getByTestId("terminal-output-show-all").textContent).toContain("500 earlier lines");
    expect(screen.getByTestId("terminal-output").textContent).not.toContain("line 500\n");
    expect(screen.getByTestId("terminal-output").textContent).toContain("line 2500");
  });
});

describe("lastLines", () => {
  it("keeps the last n lines and counts the rest", () => {
    expect(lastLines("a\nb\nc\nd\n", 2)).toEqual({ text: "c\nd\n", hidden: 2 });
    expect(lastLines("a\nb", 5)).toEqual({ text: "a\nb", hidden: 0 });
    expect(countLines("a\nb\n")).toBe(2);
    expect(countLines("a\nb")).toBe(2);
  });
});

describe("followAfterScroll (scroll-lock)", () => {
  const pos = (scrollTop: number) => ({ scrollTop, scrollHeight: 1_000, clientHeight: 200 });
  it("stops following when the user scrolls up", () => {
    expect(followAfterScroll(true, 800, pos(600))).toBe(false);
  });
  it("keeps following when output grows under a scroll that did not move up", () => {
    expect(followAfterScroll(true, 500, pos(500))).toBe(true);
  });
  it("follows again once back at the bottom", () => {
    expect(followAfterScroll(false, 600, pos(790))).toBe(true);
  });
  it("stays unlocked while the user scrolls around above the bottom", () => {
    expect(followAfterScroll(false, 300, pos(400))).toBe(false);
  });
});
