// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, render, renderHook, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TextField } from "@/components/ui/field";
import { SaveBar } from "@/app/_components/settings/save-bar";
import { useSettingsForm, type Parsed } from "@/lib/use-settings-form";

interface Draft {
  name: string;
  count: string;
}
type Errors = Partial<Record<keyof Draft, string>>;
interface Saved {
  name: string;
  count: number;
}

function parse(d: Draft): Parsed<Saved, Errors> {
  const errors: Errors = {};
  if (!d.name.trim()) errors.name = "Name is required";
  if (!/^\d+$/.test(d.count)) errors.count = "Count must be a whole number";
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value: { name: d.name.trim(), count: Number(d.count) } };
}

/** A promise the test settles by hand, standing in for the host. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

afterEach(cleanup);

describe("useSettingsForm", () => {
  const initial: Draft = { name: "seam", count: "3" };

  it("starts from the initial draft with nothing shown, and applies changes", () => {
    const { result } = renderHook(() => useSettingsForm({ initial, parse, save: vi.fn() }), { wrapper });
    expect(result.current.draft).toEqual(initial);
    expect(result.current.errors).toEqual({});
    expect(result.current.saved).toBe(false);
    expect(result.current.pending).toBe(false);
    act(() => result.current.update({ name: "other" }));
    expect(result.current.draft).toEqual({ name: "other", count: "3" });
    // No submit yet: an invalid value is not reported while typing.
    act(() => result.current.update({ count: "x" }));
    expect(result.current.errors).toEqual({});
  });

  it("stops an invalid submit at validation, then re-validates on every change", () => {
    const save = vi.fn();
    const onInvalid = vi.fn();
    const { result } = renderHook(() => useSettingsForm({ initial: { name: "", count: "x" }, parse, save, onInvalid }), { wrapper });
    act(() => result.current.submit());
    expect(save).not.toHaveBeenCalled();
    expect(onInvalid).toHaveBeenCalledWith({ name: "Name is required", count: "Count must be a whole number" });
    expect(result.current.errors).toEqual({ name: "Name is required", count: "Count must be a whole number" });
    expect(result.current.validating).toBe(true);
    act(() => result.current.update({ name: "ok" }));
    expect(result.current.errors).toEqual({ count: "Count must be a whole number" });
    act(() => result.current.update({ count: "7" }));
    expect(result.current.errors).toEqual({});
  });

  it("shows Saved only once the host confirms, and takes the host's copy of the draft", async () => {
    const host = deferred<Saved>();
    const save = vi.fn(() => host.promise);
    const onSaved = vi.fn((r: Saved) => ({ name: r.name, count: String(r.count) }));
    const { result } = renderHook(() => useSettingsForm({ initial: { name: "  spaced  ", count: "3" }, parse, save, onSaved }), { wrapper });
    act(() => result.current.submit());
    await vi.waitFor(() => expect(result.current.pending).toBe(true));
    expect(save).toHaveBeenCalledWith({ name: "spaced", count: 3 });
    expect(result.current.saved).toBe(false);
    await act(async () => host.resolve({ name: "spaced", count: 3 }));
    await vi.waitFor(() => expect(result.current.saved).toBe(true));
    expect(result.current.pending).toBe(false);
    expect(onSaved).toHaveBeenCalledWith({ name: "spaced", count: 3 });
    expect(result.current.draft).toEqual({ name: "spaced", count: "3" });
    // The next change clears "Saved".
    act(() => result.current.update({ count: "4" }));
    expect(result.current.saved).toBe(false);
  });

  it("keeps the draft and the host's refusal when the save fails; a change clears the refusal", async () => {
    const save = vi.fn(() => Promise.reject(new Error("conflict: name taken")));
    const { result } = renderHook(() => useSettingsForm({ initial, parse, save }), { wrapper });
    act(() => result.current.update({ name: "taken" }));
    act(() => result.current.submit());
    await vi.waitFor(() => expect(result.current.error?.message).toBe("conflict: name taken"));
    expect(result.current.saved).toBe(false);
    expect(result.current.pending).toBe(false);
    expect(result.current.draft).toEqual({ name: "taken", count: "3" });
    act(() => result.current.update({ name: "free" }));
    await vi.waitFor(() => expect(result.current.error).toBeNull());
  });

  it("does not claim Saved, nor overwrite typing, when the draft changed while saving", async () => {
    const host = deferred<Saved>();
    const { result } = renderHook(
      () => useSettingsForm({ initial, parse, save: () => host.promise, onSaved: (r) => ({ name: r.name, count: String(r.count) }) }),
      { wrapper },
    );
    act(() => result.current.submit());
    act(() => result.current.update({ name: "typed meanwhile" }));
    await act(async () => host.resolve({ name: "seam", count: 3 }));
    await vi.waitFor(() => expect(result.current.pending).toBe(false));
    expect(result.current.saved).toBe(false);
    expect(result.current.draft.name).toBe("typed meanwhile");
  });

  it("shows the draft as sent while saving, and errors raised before a submit", () => {
    const { result } = renderHook(
      () => useSettingsForm({ initial, parse, save: () => new Promise<Saved>(() => {}), sent: (d, v) => ({ ...d, name: v.name.toUpperCase() }) }),
      { wrapper },
    );
    act(() => result.current.showErrors({ count: "Not valid JSON" }));
    expect(result.current.errors).toEqual({ count: "Not valid JSON" });
    act(() => result.current.submit());
    expect(result.current.draft.name).toBe("SEAM");
  });
});

function Demo({ save }: { save: (v: Saved) => Promise<Saved> }) {
  const form = useSettingsForm({ initial: { name: "", count: "1" }, parse, save });
  const problems = Object.values(form.errors);
  return (
    <form onSubmit={form.submit} noValidate>
      <TextField label="Name" testId="name" value={form.draft.name} onChange={(name) => form.update({ name })} error={form.errors.name} errorTestId="field-error" />
      <SaveBar name="demo" pending={form.pending} saved={form.saved} error={form.error?.message ?? (problems.length ? `Not saved — ${problems.join("; ")}` : null)} />
    </form>
  );
}

describe("a form built on useSettingsForm, TextField and SaveBar", () => {
  it("marks the field, then saves and says so only after the host answers", async () => {
    const user = userEvent.setup();
    const host = deferred<Saved>();
    const save = vi.fn(() => host.promise);
    render(<Demo save={save} />, { wrapper });

    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByTestId("field-error").textContent).toBe("Name is required");
    expect(screen.getByLabelText("Name").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("demo-error").textContent).toContain("Not saved — Name is required");

    await user.type(screen.getByLabelText("Name"), "seam");
    expect(screen.queryByTestId("field-error")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(screen.getByRole("button", { name: "Saving…" })).toHaveProperty("disabled", true);
    expect(screen.queryByTestId("demo-saved")).toBeNull();

    await act(async () => host.resolve({ name: "seam", count: 1 }));
    expect((await screen.findByTestId("demo-saved")).textContent).toContain("Saved");
    expect(screen.queryByTestId("demo-error")).toBeNull();
  });

  it("shows the host's refusal and keeps what was typed", async () => {
    const user = userEvent.setup();
    render(<Demo save={() => Promise.reject(new Error("Not saved — the host is read-only"))} />, { wrapper });
    await user.type(screen.getByLabelText("Name"), "kept");
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByTestId("demo-error")).textContent).toBe("Not saved — the host is read-only");
    expect(screen.getByLabelText("Name")).toHaveProperty("value", "kept");
    expect(screen.queryByTestId("demo-saved")).toBeNull();
  });
});
