/**
 * A list's columns take their sorting from src/core/columns.ts, the declaration the server's sort
 * whitelist is built from: a column is sortable on screen exactly when the server sorts by it, so no
 * header offers a sort that answers 422.
 */
import { Children, cloneElement, isValidElement, type ReactNode } from "react";
import { columnsOf } from "../../core/columns";
import { apiResourceOf } from "../../core/resources";

interface ColumnProps {
  source?: string;
  sortBy?: string;
  label?: unknown;
}

/**
 * The Datagrid's columns with `sortable` (and `sortBy`) as the core declares them for `resource`. A
 * column's key is its `sortBy` when it sorts by another field than it shows (a reference shown by its
 * name), else its `source`; a key the core does not declare is not sortable. A declared label that is
 * not the key is the column's label, unless the screen gives one.
 */
export function coreColumns(resource: string, children: ReactNode): ReactNode {
  // A screen's resource may be named by its path (`productCatalogs`); the declaration is by the API's.
  const declared = columnsOf(apiResourceOf(resource));
  return Children.map(children, (child) => {
    if (!isValidElement<ColumnProps>(child)) return child;
    const key = child.props.sortBy ?? child.props.source;
    if (!key) return child;
    const column = declared.find((c) => c.key === key);
    const sortable = column?.sortable === true;
    const label =
      child.props.label === undefined && column?.label && column.label !== key
        ? `resources.${resource}.fields.${column.label}`
        : undefined;
    return cloneElement(child, { sortable, ...(sortable ? { sortBy: key } : {}), ...(label ? { label } : {}) } as ColumnProps);
  });
}
