/**
 * The audit trail of a project, an invoice or a quotation (GET …/:id/audit_logs): who, when, field,
 * old → new. With `steps`, only the changes of that one field (a quotation's state), each as «from → to»
 * with its comment: the record's history of steps.
 */
import { Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import type { Identifier } from "react-admin";
import { useDataProvider, useTranslate } from "react-admin";
import { formatDate, formatDateTime, isIsoDate } from "../../core/week";
import type { SiaDataProvider } from "../../dataProvider";

/** DD/MM/AAAA HH:mm (24 h) in the firm's zone, as the firm writes dates (src/core/week.ts). */
export { formatDateTime };

/** A changed value as a person reads it: a date column's value (a folio's date, an ETA) as DD/MM/AAAA. */
const shown = (value: string | null) => (value !== null && isIsoDate(value) ? formatDate(value) : value);

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
  const valueText = (field: string, value: string | null) => shown(valueLabel(field, value)) ?? "—";
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
                      {valueText(row.field, row.old_value)} → {valueText(row.field, row.new_value)}
                    </TableCell>
                  ) : (
                    <>
                      <TableCell>{fieldLabel(row.field)}</TableCell>
                      <TableCell>{valueText(row.field, row.old_value)}</TableCell>
                      <TableCell>{valueText(row.field, row.new_value)}</TableCell>
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
