import { Fragment, type ComponentProps, type ReactNode } from "react";
import { cn } from "@/lib/utils";

export interface Column {
  header: ReactNode;
  /** Merged over the header cell's padding: alignment, width, wrapping. */
  className?: string;
}

export interface DataTableProps<T> {
  testId?: string;
  columns: readonly Column[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** The row's `<tr>`, usually a `DataRow`. */
  row: (row: T, index: number) => ReactNode;
  /** What an open row shows in a full-width row under it; null or false while it is closed. */
  detail?: (row: T, index: number) => ReactNode;
  detailRowClassName?: string;
  detailCellClassName?: string;
  /** A full-width row shown when there are no rows. */
  empty?: ReactNode;
  /** Smaller text and tighter headers, for tables inside a panel or dialog. */
  compact?: boolean;
  className?: string;
  tableProps?: Omit<ComponentProps<"table">, "children" | "className">;
}

/** The management tables' shell: a bordered, scrolling table with a muted header and optional detail rows. */
export function DataTable<T>({
  testId, columns, rows, rowKey, row, detail, detailRowClassName, detailCellClassName, empty, compact, className, tableProps,
}: DataTableProps<T>) {
  return (
    <div className={cn("overflow-x-auto border bg-card", compact ? "rounded-lg" : "rounded-xl", className)}>
      <table data-testid={testId} className={cn("w-full border-collapse", compact ? "text-[12.5px]" : "text-[13px]")} {...tableProps}>
        <thead>
          <tr className={cn("border-b bg-muted/50 text-left text-muted-foreground", compact ? "text-[11.5px]" : "text-[12px]")}>
            {columns.map((c, i) => (
              <th key={i} className={cn("px-3 font-medium", compact ? "py-1.5" : "py-2", c.className)}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && empty && (
            <tr>
              <td colSpan={columns.length} className="px-3 py-6 text-center text-muted-foreground">
                {empty}
              </td>
            </tr>
          )}
          {rows.map((r, i) => {
            const open = detail?.(r, i);
            return (
              <Fragment key={rowKey(r, i)}>
                {row(r, i)}
                {open ? (
                  <tr className={cn("border-b last:border-b-0", detailRowClassName)}>
                    <td colSpan={columns.length} className={cn("p-0", detailCellClassName)}>
                      {open}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** A table row; an open row loses its bottom border so it reads as one block with its detail. */
export function DataRow({ open, className, ...props }: ComponentProps<"tr"> & { open?: boolean }) {
  return <tr className={cn("border-b align-top last:border-b-0", open && "border-b-0 bg-muted/30", className)} {...props} />;
}
