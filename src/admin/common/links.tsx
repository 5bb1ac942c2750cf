/**
 * Buttons that lead to a record's screens at SPEC §2's paths (react-admin's own buttons build
 * react-admin's paths, which differ: see resourceRoutes.tsx).
 */
import AddIcon from "@mui/icons-material/Add";
import EditIcon from "@mui/icons-material/Edit";
import { Button } from "@mui/material";
import { useCanAccess, useRecordContext, useResourceContext, useTranslate } from "react-admin";
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
