// @vitest-environment happy-dom
import type { ShellSettingsView } from "@seam/shared";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { availabilityText, ShellSettingsForm } from "@/app/_components/settings/shell-section";

afterEach(cleanup);

const available = { available: true, reason: null, path: "/usr/bin/bwrap", version: "bubblewrap 0.8.0", checkedAt: new Date().toISOString() };
const missing = { available: false, reason: "bwrap is not installed — install the Debian package bubblewrap.", path: "bwrap", version: null, checkedAt: new Date().toISOString() };

const view = (over: Partial<ShellSettingsView> = {}): ShellSettingsView => ({ settings: { sandbox: "workspace-write", network: true }, source: "saved", availability: available, ...over });

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function renderForm(v: ShellSettingsView, save = vi.fn(async (s: ShellSettingsView["settings"]) => view({ settings: s })), onProbe = vi.fn()) {
  render(wrap(<ShellSettingsForm view={v} save={save} probing={false} probeError={null} onProbe={onProbe} />));
  return { save, onProbe };
}

describe("availabilityText", () => {
  it("names the working version, or the reason", () => {
    expect(availabilityText(available)).toBe("bubblewrap 0.8.0 works");
    expect(availabilityText(missing)).toContain("not installed");
  });
});

describe("ShellSettingsForm", () => {
  it("with bwrap working: every mode can be chosen, network follows the sandbox, saving sends the draft", async () => {
    const user = userEvent.setup();
    const { save, onProbe } = renderForm(view());
    expect(screen.getByTestId("shell-availability-text").textContent).toBe("bubblewrap 0.8.0 works");
    for (const mode of ["workspace-write", "read-only", "off"]) expect(screen.getByTestId(`shell-sandbox-${mode}`).hasAttribute("disabled")).toBe(false);
    expect((screen.getByTestId("shell-sandbox-workspace-write") as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByTestId("shell-network"));
    await user.click(screen.getByTestId("shell-sandbox-read-only"));
    await user.click(screen.getByTestId("shell-save"));
    await waitFor(() => expect(screen.getByTestId("shell-saved")).toBeTruthy());
    expect(save).toHaveBeenCalledWith({ sandbox: "read-only", network: false });
    await user.click(screen.getByTestId("shell-probe"));
    expect(onProbe).toHaveBeenCalledTimes(1);
    // Without a sandbox the network switch has nothing to decide.
    await user.click(screen.getByTestId("shell-sandbox-off"));
    expect(screen.getByTestId("shell-network").hasAttribute("disabled")).toBe(true);
  });

  it("with bwrap unavailable: the sandboxed modes are disabled with the reason, off stays", () => {
    renderForm(view({ settings: { sandbox: "off", network: true }, availability: missing }));
    expect(screen.getByTestId("shell-availability").getAttribute("data-available")).toBe("false");
    expect(screen.getByTestId("shell-availability-text").textContent).toContain("not installed");
    expect(screen.getByTestId("shell-sandbox-workspace-write").hasAttribute("disabled")).toBe(true);
    expect(screen.getByTestId("shell-sandbox-read-only").hasAttribute("disabled")).toBe(true);
    expect(screen.getByTestId("shell-sandbox-off").hasAttribute("disabled")).toBe(false);
    const reasons = screen.getAllByTestId("shell-sandbox-disabled-reason");
    expect(reasons).toHaveLength(2);
    expect(reasons[0]!.textContent).toContain("bwrap is not installed");
    expect(screen.queryByTestId("shell-saved-broken")).toBeNull();
  });

  it("warns when the saved sandbox cannot run, and shows a refused save inline", async () => {
    const user = userEvent.setup();
    const refusal = Object.assign(new Error("The workspace-write sandbox cannot be chosen: bwrap is missing."), { data: { hostCode: "sandbox_unavailable" } });
    const save = vi.fn(async () => {
      throw refusal;
    });
    renderForm(view({ availability: missing }), save);
    expect(screen.getByTestId("shell-saved-broken").textContent).toContain("refuses commands");
    await user.click(screen.getByTestId("shell-save"));
    const error = await screen.findByTestId("shell-error");
    expect(error.getAttribute("data-code")).toBe("sandbox_unavailable");
    expect(error.textContent).toContain("Not saved — The workspace-write sandbox cannot be chosen");
  });
});
