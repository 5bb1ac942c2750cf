/**
 * «Copiar semana anterior»: first asks the server what would be copied and what skipped (a dry run), shows
 * it, and copies only when confirmed; then says what happened, with the skipped ones and why.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from "@mui/material";
import { useState } from "react";
import { type HttpError, type Identifier, useNotify, useTranslate } from "react-admin";
import { dmy, messages } from "../../core/messages";
import { hhmm, localDate } from "../../core/week";
import type { ActivitySkipped } from "../../dataProvider";
import type { TimesheetMutations } from "../data/mutations";

const errorText = (error: unknown) => (error as HttpError)?.message || messages.unexpected;

function SkippedList({ skipped }: { skipped: ActivitySkipped[] }) {
  return (
    <ul style={{ margin: 0 }}>
      {skipped.map((s) => (
        <li key={`${s.begins_at}-${s.description}`}>
          {dmy(localDate(new Date(s.begins_at)))} {hhmm(new Date(s.begins_at))} - {hhmm(new Date(s.ends_at))} {s.description}:{" "}
          {s.reason}
        </li>
      ))}
    </ul>
  );
}

export function CopyWeekButton(props: {
  weekStart: string | null;
  /** The employee whose week (admins); undefined: the signed-in user's own. */
  employee?: Identifier | null;
  disabled: boolean;
  /** Why it is disabled (shown as the button's title). */
  reason?: string | null;
  mutations: TimesheetMutations;
}) {
  const { weekStart, mutations } = props;
  const notify = useNotify();
  const translate = useTranslate();
  const [preview, setPreview] = useState<{ created: number; skipped: ActivitySkipped[]; message: string } | null>(null);
  const [skipped, setSkipped] = useState<ActivitySkipped[] | null>(null);
  const busy = mutations.copyPreviousWeek.isPending;

  const ask = async () => {
    if (!weekStart || busy) return;
    setSkipped(null);
    try {
      const r = await mutations.copyPreviousWeek.mutateAsync({ weekStart, employee: props.employee, dryRun: true });
      const toCopy = r.to_copy?.length ?? 0;
      if (!toCopy && !r.skipped.length) return notify(r.message, { type: "info" });
      setPreview({ created: toCopy, skipped: r.skipped, message: r.message });
    } catch (error) {
      notify(errorText(error), { type: "error" });
    }
  };

  const copy = async () => {
    setPreview(null);
    if (!weekStart) return;
    try {
      const r = await mutations.copyPreviousWeek.mutateAsync({ weekStart, employee: props.employee });
      notify(r.message, { type: r.created ? "success" : "warning" });
      if (r.skipped.length) setSkipped(r.skipped);
    } catch (error) {
      notify(errorText(error), { type: "error" });
    }
  };

  return (
    <>
      <span title={props.disabled && props.reason ? props.reason : undefined}>
        {/* Not disabled while copying: the dialog gives the focus back to this button when it closes. */}
        <Button size="small" variant="outlined" onClick={ask} disabled={props.disabled} data-testid="copy-week">
          {translate("sia.timesheet_import.copy_title")}
        </Button>
      </span>
      <Dialog open={preview !== null} onClose={() => setPreview(null)} data-testid="copy-week-dialog">
        <DialogTitle>{translate("sia.timesheet_import.copy_title")}</DialogTitle>
        {/* A long list of what is skipped scrolls: focusable, so the keyboard can scroll it too. */}
        <DialogContent tabIndex={0}>
          <Typography sx={{ mb: 1 }}>{preview?.message}</Typography>
          {preview?.skipped.length ? (
            <Alert severity="warning">
              {messages.copySkippedSummary(preview.skipped.length)}
              <SkippedList skipped={preview.skipped} />
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setPreview(null)}>{translate("sia.timesheet_import.cancel")}</Button>
          <Button variant="contained" onClick={copy} disabled={!preview?.created} data-testid="copy-week-confirm">
            {translate("sia.timesheet_import.copy_confirm")}
          </Button>
        </DialogActions>
      </Dialog>
      {skipped && (
        <Alert severity="warning" onClose={() => setSkipped(null)} sx={{ width: "100%" }} data-testid="copy-skipped">
          {messages.copySkippedSummary(skipped.length)}
          <SkippedList skipped={skipped} />
        </Alert>
      )}
    </>
  );
}
