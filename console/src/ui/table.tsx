import type { ComponentChildren } from "preact";

export interface Column<T> {
  readonly label: string;
  readonly cell: (row: T) => ComponentChildren;
  /** Right-aligned numbers. */
  readonly numeric?: boolean;
}

/** A plain data table; `empty` is shown in place of rows when there are none. */
export function Table<T>(props: { rows: readonly T[]; columns: readonly Column<T>[]; rowKey: (row: T) => string; empty: string; testId?: string }) {
  return (
    <table class="table" data-testid={props.testId}>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th key={c.label} class={c.numeric ? "num" : undefined}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0 ? (
          <tr>
            <td class="empty" colSpan={props.columns.length}>
              {props.empty}
            </td>
          </tr>
        ) : (
          props.rows.map((row) => (
            <tr key={props.rowKey(row)} data-testid="table-row">
              {props.columns.map((c) => (
                <td key={c.label} class={c.numeric ? "num" : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
