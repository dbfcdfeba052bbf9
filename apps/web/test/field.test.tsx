// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { TextField } from "@/components/ui/field";

afterEach(cleanup);

function Controlled(props: { rows?: number; code?: boolean; error?: string }) {
  const [value, setValue] = useState("");
  return <TextField label="Command" hint="A program on PATH" testId="cmd" errorTestId="cmd-error" errorField="command" value={value} onChange={setValue} {...props} />;
}

describe("TextField", () => {
  it("labels its input, shows the hint, and reports typed text", async () => {
    render(<Controlled />);
    const input = screen.getByLabelText("Command");
    expect(input.tagName).toBe("INPUT");
    expect(screen.getByText("A program on PATH")).toBeTruthy();
    await userEvent.setup().type(input, "npx");
    expect(input).toHaveProperty("value", "npx");
    expect(input.getAttribute("aria-invalid")).toBeNull();
  });

  it("replaces the hint with the error, names the field and marks the input invalid", () => {
    render(<Controlled error="Command is required" />);
    const error = screen.getByTestId("cmd-error");
    expect(error.textContent).toBe("Command is required");
    expect(error.dataset.field).toBe("command");
    expect(screen.queryByText("A program on PATH")).toBeNull();
    expect(screen.getByLabelText("Command").getAttribute("aria-invalid")).toBe("true");
  });

  it("becomes a textarea with rows, and a code field turns off spell check and autofill", () => {
    render(<Controlled rows={3} code />);
    const area = screen.getByLabelText("Command");
    expect(area.tagName).toBe("TEXTAREA");
    expect(area.getAttribute("rows")).toBe("3");
    expect(area.getAttribute("spellcheck")).toBe("false");
    expect(area.getAttribute("autocomplete")).toBe("off");
    expect(area.classList.contains("font-mono")).toBe(true);
  });
});
