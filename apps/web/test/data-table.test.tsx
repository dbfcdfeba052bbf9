// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { DataRow, DataTable, type Column } from "@/components/ui/data-table";
import { ExpandButton } from "@/components/ui/expand-button";

interface Fruit {
  name: string;
  count: number;
}
const COLUMNS: Column[] = [{ header: "Fruit" }, { header: "Count", className: "text-right" }, { header: <span className="sr-only">Actions</span> }];
const FRUITS: Fruit[] = [
  { name: "apple", count: 3 },
  { name: "pear", count: 1 },
];

function Fruits({ fruits, initiallyOpen = null }: { fruits: Fruit[]; initiallyOpen?: string | null }) {
  const [open, setOpen] = useState<string | null>(initiallyOpen);
  return (
    <DataTable
      rows={fruits}
      columns={COLUMNS}
      empty="No fruit yet."
      testId="fruits"
      detail={(f) => open === f.name && <p data-testid="fruit-detail">{f.name} has {f.count}</p>}
      rowKey={(f) => f.name}
      row={(f) => (
        <DataRow data-testid="fruit-row" data-name={f.name} open={open === f.name}>
          <td>
            <ExpandButton open={open === f.name} onClick={() => setOpen(open === f.name ? null : f.name)}>
              {f.name}
            </ExpandButton>
          </td>
          <td>{f.count}</td>
          {/* oxlint-disable-next-line jsx-a11y/control-has-associated-label -- an empty table cell (the Actions column) is not a control */}
          <td />
        </DataRow>
      )}
    />
  );
}

afterEach(cleanup);

describe("DataTable", () => {
  it("renders the headers and one row per item, in order", () => {
    render(<Fruits fruits={FRUITS} />);
    const table = screen.getByTestId("fruits");
    expect(within(table).getAllByRole("columnheader").map((th) => th.textContent)).toEqual(["Fruit", "Count", "Actions"]);
    expect(screen.getAllByTestId("fruit-row").map((r) => r.dataset.name)).toEqual(["apple", "pear"]);
    expect(screen.queryByTestId("fruit-detail")).toBeNull();
    expect(screen.queryByText("No fruit yet.")).toBeNull();
  });

  it("opens a row's detail in a full-width row right under it, and closes it again", async () => {
    const user = userEvent.setup();
    render(<Fruits fruits={FRUITS} />);
    const toggle = screen.getByRole("button", { name: "apple" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    await user.click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const detail = screen.getByTestId("fruit-detail");
    expect(detail.textContent).toBe("apple has 3");
    const cell = detail.closest("td")!;
    expect(cell.colSpan).toBe(3);
    // The detail row sits between apple and pear.
    const rows = within(screen.getByTestId("fruits")).getAllByRole("row").slice(1);
    expect(rows.map((r) => r.dataset.name ?? "detail")).toEqual(["apple", "detail", "pear"]);
    await user.click(toggle);
    expect(screen.queryByTestId("fruit-detail")).toBeNull();
  });

  it("marks the open row so it reads as one block with its detail", () => {
    render(<Fruits fruits={FRUITS} initiallyOpen="pear" />);
    const [apple, pear] = screen.getAllByTestId("fruit-row");
    expect(pear!.classList.contains("border-b-0")).toBe(true);
    expect(apple!.classList.contains("border-b-0")).toBe(false);
  });

  it("shows the empty message across all columns when there are no rows", () => {
    render(<Fruits fruits={[]} />);
    const empty = screen.getByText("No fruit yet.");
    expect((empty as HTMLTableCellElement).colSpan).toBe(3);
    expect(screen.queryAllByTestId("fruit-row")).toHaveLength(0);
  });
});
