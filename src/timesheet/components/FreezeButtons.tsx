/**
 * Closing and opening the week or the month (SPEC §4 freezing): what the signed-in user may do with the
 * shown employee's week, as the server answers it (GET activities/week_state), each asked first. A closed
 * week says so.
 */
import LockIcon from "@mui/icons-material/Lock";
import { Button, Chip } from "@mui/material";
import { useState } from "react";
import { Confirm, useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { firstOfMonth, formatDate, lastOfMonth } from "../../core/week";
import type { FreezeVerb } from "../../dataProvider";
import type { WeekState } from "../data/queries";

/** Each verb's button and its question, in the catalogue. */
const label = (verb: FreezeVerb) => `sia.timesheet.freeze.${verb}`;
const question = (verb: FreezeVerb) => `sia.timesheet.freeze_ask.${verb}`;

export function FreezeButtons(props: {
  state: WeekState | null;
  /** Admins: every verb (the month too); others: closing their own week. */
  isAdmin: boolean;
  busy: boolean;
  /** Whose week it is, named in the question. */
  employeeName?: string;
  onFreeze(verb: FreezeVerb): void;
}) {
  const { state, isAdmin, busy, employeeName } = props;
  const translate = useTranslate();
  const [asking, setAsking] = useState<FreezeVerb | null>(null);
  if (!state) return null;
  const ask = (verb: FreezeVerb) =>
    translate(question(verb), {
      name: employeeName ?? `#${state.employee_id}`,
      from: formatDate(state.week_start),
      to: formatDate(state.week_end),
      month_from: formatDate(firstOfMonth(state.week_start)),
      month_to: formatDate(lastOfMonth(state.week_start)),
    });
  const verbs: FreezeVerb[] = [];
  if (!state.frozen && state.can_close) verbs.push("close_activities");
  if (state.frozen && state.frozen_kind === "week" && state.can_open) verbs.push("open_activities");
  if (isAdmin) verbs.push("close_month_activities", "open_month_activities");
  return (
    <>
      {state.frozen && (
        <Chip
          icon={<LockIcon />}
          color="error"
          size="small"
          data-testid="week-closed"
          label={translate(`sia.timesheet_import.${state.frozen_kind === "month" ? "month_closed" : "week_closed"}`)}
        />
      )}
      {verbs.map((verb) => (
        <Button
          key={verb}
          size="small"
          variant="outlined"
          color={verb.startsWith("close") ? "error" : "primary"}
          onClick={() => setAsking(verb)}
          disabled={busy}
        >
          {translate(label(verb))}
        </Button>
      ))}
      <Confirm
        isOpen={asking !== null}
        title={asking ? label(asking) : ""}
        content={asking === "close_activities" && !isAdmin ? messages.confirmCloseWeek : asking ? ask(asking) : ""}
        confirm="sia.common.confirm"
        cancel="sia.common.cancel"
        onConfirm={() => {
          const verb = asking;
          setAsking(null);
          if (verb) props.onFreeze(verb);
        }}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
