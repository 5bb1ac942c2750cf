/** The timesheet's toolbar pieces: whose week (admins) and the week's downloads. */
import { Button, CircularProgress, MenuItem, TextField } from "@mui/material";
import { useState } from "react";
import { type HttpError, useDataProvider, useNotify, useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { sundayOf } from "../../core/week";
import type { SiaDataProvider } from "../../dataProvider";
import type { EmployeeChoice } from "../data/keys";

export function EmployeePicker(props: {
  value: EmployeeChoice;
  employees: { id: number; name: string }[];
  onChange(choice: EmployeeChoice): void;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate("sia.timesheet.employee")}
      value={props.value ?? ""}
      onChange={(e) => props.onChange(e.target.value === "todos" ? "todos" : Number(e.target.value))}
      sx={{ minWidth: 240 }}
      slotProps={{ htmlInput: { "data-testid": "employee-picker" } }}
    >
      <MenuItem value="todos">{translate("sia.timesheet.all_employees")}</MenuItem>
      {props.employees.map((e) => (
        <MenuItem key={e.id} value={e.id}>
          {e.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** «Descargar CSV» (the week shown, of whom is shown) and «Reporte personal» (one's own). */
export function Downloads(props: { weekStart: string | null; employee: EmployeeChoice; isAdmin: boolean; hasEmployee: boolean }) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [downloading, setDownloading] = useState<"activities" | "personal" | null>(null);
  const { weekStart } = props;

  const download = async (kind: "activities" | "personal") => {
    if (!weekStart) return;
    setDownloading(kind);
    try {
      await dataProvider.downloadActivitiesCsv(kind, {
        "by_begins_at[start_date]": weekStart,
        "by_begins_at[end_date]": sundayOf(weekStart),
        by_employee: kind === "activities" && props.isAdmin ? (props.employee ?? "todos") : undefined,
      });
      notify(messages.activitiesCsvDownloaded, { type: "success" });
    } catch (error) {
      notify((error as HttpError)?.message || messages.unexpected, { type: "error" });
    } finally {
      setDownloading(null);
    }
  };

  return (
    <>
      <Button
        size="small"
        onClick={() => download("activities")}
        disabled={downloading !== null}
        startIcon={downloading === "activities" ? <CircularProgress size={14} /> : undefined}
      >
        {translate("sia.timesheet.download_csv")}
      </Button>
      <Button
        size="small"
        onClick={() => download("personal")}
        disabled={downloading !== null || !props.hasEmployee}
        startIcon={downloading === "personal" ? <CircularProgress size={14} /> : undefined}
      >
        {translate("sia.timesheet.personal_report")}
      </Button>
    </>
  );
}
