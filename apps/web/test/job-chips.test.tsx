// @vitest-environment happy-dom
import type { ShellJobView } from "@seam/shared";
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { JobChipView } from "@/app/_components/jobs/job-chips";
import { jobStateLabel, shortCommand, visibleJobs } from "@/app/_components/jobs/job-state";

afterEach(cleanup);

const T0 = Date.parse("2025-05-01T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const job = (over: Partial<ShellJobView> = {}): ShellJobView => ({
  id: "job_1", sessionId: "s", command: "npm run dev", startedAt: at(0), state: "running", exitCode: null, signal: null, endedAt: null, ...over,
});

describe("job state", () => {
  it("names running, exited and killed jobs", () => {
    expect(jobStateLabel(job(), T0 + 12_000)).toEqual({ label: "running 12 s", tone: "running" });
    expect(jobStateLabel(job({ state: "exited", exitCode: 0, endedAt: at(1) }), T0)).toEqual({ label: "exited 0", tone: "ok" });
    expect(jobStateLabel(job({ state: "exited", exitCode: 2, endedAt: at(1) }), T0)).toEqual({ label: "exited 2", tone: "failed" });
    expect(jobStateLabel(job({ state: "killed", signal: "SIGTERM", endedAt: at(1) }), T0)).toEqual({ label: "killed (SIGTERM)", tone: "killed" });
  });

  it("keeps running jobs, and finished ones until dismissed or a while after they ended", () => {
    const jobs = [
      job({ id: "job_3", startedAt: at(3) }),
      job({ id: "job_1", state: "exited", exitCode: 0, endedAt: at(10) }),
      job({ id: "job_2", state: "killed", startedAt: at(1), endedAt: at(20) }),
    ];
    expect(visibleJobs(jobs, new Set(), T0 + 30, 60_000).map((j) => j.id)).toEqual(["job_1", "job_2", "job_3"]);
    expect(visibleJobs(jobs, new Set(["job_2", "job_3"]), T0 + 30, 60_000).map((j) => j.id)).toEqual(["job_1", "job_3"]);
    expect(visibleJobs(jobs, new Set(), T0 + 60_015, 60_000).map((j) => j.id)).toEqual(["job_2", "job_3"]);
  });

  it("shortens long commands to one line", () => {
    expect(shortCommand("a\n  b")).toBe("a b");
    expect(shortCommand("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

describe("JobChipView", () => {
  const handlers = () => ({ onKill: vi.fn(), onOutput: vi.fn(), onDismiss: vi.fn() });

  it("a running job shows its elapsed time and a kill button", async () => {
    const user = userEvent.setup();
    const h = handlers();
    render(<JobChipView job={job()} now={T0 + 3_000} killing={false} error={null} {...h} />);
    expect(screen.getByTestId("job-chip").getAttribute("data-state")).toBe("running");
    expect(screen.getByTestId("job-chip-state").textContent).toBe("running 3.0 s");
    expect(screen.queryByTestId("job-chip-dismiss")).toBeNull();
    await user.click(screen.getByTestId("job-chip-kill"));
    expect(h.onKill).toHaveBeenCalledTimes(1);
    await user.click(screen.getByTestId("job-chip-output"));
    expect(h.onOutput).toHaveBeenCalledTimes(1);
  });

  it("while killing, says so and cannot be pressed again", () => {
    render(<JobChipView job={job()} now={T0} killing error={null} {...handlers()} />);
    expect(screen.getByTestId("job-chip-state").textContent).toBe("stopping…");
    expect(screen.getByTestId("job-chip-kill").hasAttribute("disabled")).toBe(true);
  });

  it("a killed job has no kill button and can be dismissed", async () => {
    const user = userEvent.setup();
    const h = handlers();
    render(<JobChipView job={job({ state: "killed", signal: "SIGTERM", endedAt: at(5) })} now={T0} killing={false} error={null} {...h} />);
    expect(screen.getByTestId("job-chip-state").textContent).toBe("killed (SIGTERM)");
    expect(screen.queryByTestId("job-chip-kill")).toBeNull();
    await user.click(screen.getByTestId("job-chip-dismiss"));
    expect(h.onDismiss).toHaveBeenCalledTimes(1);
  });

  it("an exited job shows its code; a failed kill shows why", () => {
    render(<JobChipView job={job({ state: "exited", exitCode: 1, endedAt: at(5) })} now={T0} killing={false} error="Could not kill: gone" {...handlers()} />);
    expect(screen.getByTestId("job-chip-state").textContent).toBe("exited 1");
    expect(screen.getByTestId("job-chip-error").textContent).toBe("Could not kill: gone");
  });
});
