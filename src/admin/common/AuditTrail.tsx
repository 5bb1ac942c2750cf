/**
 * The audit trail of a project, an invoice or a quotation (GET …/:id/audit_logs): who, when, field,
 * old → new. With `steps`, only the changes of that one field (a quotation's state), each as «from → to»
 * with its comment: the record's history of steps.
 */
import { Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { Identifier } from "react-admin";
import { useDataProvider, useTranslate } from "react-admin";
import type { SiaDataProvider } from "../../dataProvider";

/** DD/MM/AAAA HH:mm (24 h), as the firm writes dates. */
const dateTime = new Intl.DateTimeFormat("es-MX", {
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
export const formatDateTime = (value: string | null | undefined) => (value ? dateTime.format(new Date(value)) : "—");

export function AuditTrail({
  resource,
  id,
  valueLabel = (_field, value) => value,
  steps,
  title = "sia.audit.title",
  emptyText = "sia.audit.empty",
}: {
  resource: "projects" | "invoices" | "quotations";
  id: Identifier;
  valueLabel?: (field: string, value: string | null) => string | null;
  /** Only this field's changes, shown as steps (from → to); its label a catalogue key. */
  steps?: { field: string; label: string };
  /** Catalogue keys (a plain text shows as it is). */
  title?: string;
  emptyText?: string;
}) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const translate = useTranslate();
  const {
    data = [],
    isPending,
    error,
  } = useQuery({
    queryKey: [resource, "auditLogs", String(id)],
    queryFn: () => dataProvider.auditLogs(resource, id),
  });
  const fieldLabel = (field: string) => translate(`resources.${resource}.fields.${field}`, { _: field });
  const text = (key: string) => translate(key, { _: key });
  const rows = steps ? data.filter((row) => row.field === steps.field) : data;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {text(title)}
        </Typography>
        {isPending ? (
          <Typography variant="body2">{translate("sia.common.loading")}</Typography>
        ) : error ? (
          <Typography color="error">{(error as Error).message}</Typography>
        ) : rows.length === 0 ? (
          <Typography variant="body2">{text(emptyText)}</Typography>
        ) : (
          <Table size="small" aria-label={text(title)}>
            <TableHead>
              <TableRow>
                <TableCell>{translate("sia.audit.date")}</TableCell>
                <TableCell>{translate("sia.audit.user")}</TableCell>
                {steps ? (
                  <TableCell>{text(steps.label)}</TableCell>
                ) : (
                  <>
                    <TableCell>{translate("sia.audit.field")}</TableCell>
                    <TableCell>{translate("sia.audit.before")}</TableCell>
                    <TableCell>{translate("sia.audit.after")}</TableCell>
                  </>
                )}
                <TableCell>{translate("sia.audit.comment")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id}>
                  <TableCell>{formatDateTime(row.created_at)}</TableCell>
                  <TableCell>{row.user_name ?? (row.user_id ? `#${row.user_id}` : translate("sia.audit.system"))}</TableCell>
                  {steps ? (
                    <TableCell>
                      {valueLabel(row.field, row.old_value) ?? "—"} → {valueLabel(row.field, row.new_value) ?? "—"}
                    </TableCell>
                  ) : (
                    <>
                      <TableCell>{fieldLabel(row.field)}</TableCell>
                      <TableCell>{valueLabel(row.field, row.old_value) ?? "—"}</TableCell>
                      <TableCell>{valueLabel(row.field, row.new_value) ?? "—"}</TableCell>
                    </>
                  )}
                  <TableCell>{row.comment ?? "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
