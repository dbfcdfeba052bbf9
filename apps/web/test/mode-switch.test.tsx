// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ModeMenu } from "@/app/_components/chat/mode-switch";
import { modeSwitchLabel } from "@/app/_components/permissions/modes";

afterEach(cleanup);

describe("modeSwitchLabel", () => {
  it("names the session's own mode, or the default it follows", () => {
    expect(modeSwitchLabel("auto-edit", "ask")).toBe("Auto-edit");
    expect(modeSwitchLabel(null, "ask")).toBe("default (Ask)");
    expect(modeSwitchLabel(null, "plan")).toBe("default (Plan)");
    expect(modeSwitchLabel(null, undefined)).toBe("default");
  });
});

describe("ModeMenu", () => {
  it("lists the four modes with their explanations and picks one", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<ModeMenu mode={null} defaultMode="ask" pending={false} error={null} onChange={onChange} />);
    expect(screen.getByTestId("mode-switch-label").textContent).toBe("default (Ask)");
    await user.click(screen.getByTestId("mode-switch"));
    const menu = await screen.findByTestId("mode-menu");
    expect(menu.textContent).toContain("Only reading and web tools run");
    expect(menu.textContent).toContain("Follow the default (Ask)");
    await user.click(screen.getByTestId("mode-option-plan"));
    expect(onChange).toHaveBeenCalledWith("plan");
  });

  it("goes back to the default", async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<ModeMenu mode="auto" defaultMode="ask" pending={false} error={null} onChange={onChange} />);
    expect(screen.getByTestId("mode-switch-label").textContent).toBe("Auto");
    await user.click(screen.getByTestId("mode-switch"));
    await user.click(await screen.findByTestId("mode-option-default"));
    expect(onChange).toHaveBeenCalledWith(null);
  });
});
