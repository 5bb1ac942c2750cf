/**
 * Buttons that lead to a record's screens at SPEC §2's paths (react-admin's own buttons build
 * react-admin's paths, which differ: see resourceRoutes.tsx).
 */
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import { Button, Link as MuiLink } from "@mui/material";
import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import { type DatagridProps, type RaRecord, useCanAccess, useRecordContext, useResourceContext, useTranslate } from "react-admin";
import { Link } from "react-router-dom";
import { type ScreenKind, screenPath } from "../../core/resources";

const stop = (e: React.MouseEvent) => e.stopPropagation();

function ScreenLink({
  kind,
  label,
  icon,
  action,
  to,
}: {
  kind: ScreenKind;
  label: string;
  icon: React.ReactNode;
  action: "edit" | "show" | "create";
  /** Where it leads when the screen is not at the resource's own path (a project's invoices). */
  to?: string;
}) {
  const resource = useResourceContext() as string;
  const record = useRecordContext();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource, action, record });
  if (!canAccess || (kind !== "create" && !record)) return null;
  return (
    <Button component={Link} to={to ?? screenPath(resource, kind, record?.id)} onClick={stop} startIcon={icon} size="small">
      {translate(label)}
    </Button>
  );
}

export const EditLink = ({ to }: { to?: string }) => (
  <ScreenLink kind="edit" action="edit" label="ra.action.edit" icon={<EditIcon />} to={to} />
);
export const CreateLink = () => <ScreenLink kind="create" action="create" label="ra.action.create" icon={<AddIcon />} />;

/** rowClick for a Datagrid: the spec's show path. */
export const showRowClick = (id: unknown, resource: string) => screenPath(resource, "show", id as string);
/** Rows of catalogues that have no detail screen open the record's form. */
export const editRowClick = (id: unknown, resource: string) => screenPath(resource, "edit", id as string);

type RowClick = DatagridProps["rowClick"];

/**
 * Where a row leads, as its rowClick says: a path, a screen kind at the spec's path, or nowhere (false,
 * and what is not a path: "expand", "toggleSelection", or a path that is only known later).
 */
export function rowPath(rowClick: RowClick, resource: string, record: RaRecord): string | false {
  if (!rowClick) return false;
  const to = typeof rowClick === "function" ? rowClick(record.id, resource, record) : rowClick;
  if (typeof to !== "string") return false;
  if (to === "show" || to === "edit") return screenPath(resource, to, record.id);
  return to.startsWith("/") ? to : false;
}

interface ColumnProps {
  source?: string;
  label?: unknown;
  sortable?: boolean;
  textAlign?: string;
}

/**
 * A column's cell as a link to where the row leads: the keyboard reaches it with Tab, a screen reader says
 * it is a link to the record, and a middle click or «abrir en otra pestaña» works. The click stays the
 * link's own, so the row (which leads to the same place) does not navigate a second time.
 */
function RowLinkColumn({ column, rowClick }: ColumnProps & { column: ReactElement; rowClick: RowClick }) {
  const record = useRecordContext();
  const resource = useResourceContext() as string;
  const to = record ? rowPath(rowClick, resource, record) : false;
  if (!to) return column;
  return (
    <MuiLink component={Link} to={to} state={{ _scrollToTop: true }} onClick={stop} underline="hover">
      {column}
    </MuiLink>
  );
}

/**
 * The columns with the row's record named by a link: the `name` column, or else the first. The table reads
 * a column's header from its element, so the link's element carries the column's own props.
 */
export function withRowLink(children: ReactNode, rowClick: RowClick): ReactNode {
  if (!rowClick) return children;
  const columns = Children.toArray(children);
  const named = columns.findIndex((c) => isValidElement<ColumnProps>(c) && c.props.source === "name");
  const linked = named >= 0 ? named : columns.findIndex((c) => isValidElement(c));
  return columns.map((child, index) => {
    if (index !== linked || !isValidElement<ColumnProps>(child)) return child;
    const type = child.type as { textAlign?: string; sortable?: boolean };
    return (
      <RowLinkColumn
        key={child.key ?? index}
        {...child.props}
        textAlign={child.props.textAlign ?? type.textAlign}
        sortable={child.props.sortable ?? type.sortable}
        column={child}
        rowClick={rowClick}
      />
    );
  });
}
