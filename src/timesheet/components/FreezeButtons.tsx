/**
 * Closing and opening the week or the month (SPEC §4 freezing): what the signed-in user may do with the
 * shown employee's week, as the server answers it (GET activities/week_state), each asked first. A closed
 * week says so.
 */
import LockIcon from "@mui/icons-material/Lock";
import { Button, Chip, FormControlLabel, Radio, RadioGroup, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { Confirm, useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { firstOfMonth, formatDate, sundayOf } from "../../core/week";
import type { FreezeVerb } from "../../dataProvider";
import type { WeekState } from "../data/queries";

/** Each verb's button and its question, in the catalogue. */
const label = (verb: FreezeVerb) => `sia.timesheet.freeze.${verb}`;
const question = (verb: FreezeVerb) => `sia.timesheet.freeze_ask.${verb}`;

const isMonthVerb = (verb: FreezeVerb | null) => verb === "close_month_activities" || verb === "open_month_activities";
const MONTH_NAME = new Intl.DateTimeFormat("es-MX", { month: "long", year: "numeric", timeZone: "UTC" });
/** «noviembre de 2026» for a YYYY-MM-DD. */
const monthName = (date: string) => MONTH_NAME.format(new Date(`${firstOfMonth(date)}T12:00:00Z`));

export function FreezeButtons(props: {
  state: WeekState | null;
  /** The Monday shown: a month verb acts on its month, or on the week's other month when it spans two. */
  weekStart: string | null;
  /** Admins: every verb (the month too); others: closing their own week. */
  isAdmin: boolean;
  busy: boolean;
  /** Whose week it is, named in the question. */
  employeeName?: string;
  /** `date`: a day of the month a month verb acts on (the Monday's when absent). */
  onFreeze(verb: FreezeVerb, date?: string): void;
}) {
  const { state, isAdmin, busy, weekStart, employeeName } = props;
  const translate = useTranslate();
  const [asking, setAsking] = useState<FreezeVerb | null>(null);
  // The months the week touches: one, or two (30 Nov – 6 Dec); the Monday's is offered first.
  const months = weekStart ? [...new Set([firstOfMonth(weekStart), firstOfMonth(sundayOf(weekStart))])] : [];
  const [month, setMonth] = useState<string | null>(null);
  const chosenMonth = month && months.includes(month) ? month : (months[0] ?? null);
  if (!state) return null;
  const ask = (verb: FreezeVerb) =>
    translate(question(verb), {
      name: employeeName ?? `#${state.employee_id}`,
      from: formatDate(state.week_start),
      to: formatDate(state.week_end),
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
        content={
          isMonthVerb(asking) && chosenMonth ? (
            <Stack spacing={1} data-testid="freeze-month">
              <Typography>
                {translate(`sia.timesheet_more.${asking === "close_month_activities" ? "close" : "open"}_month_named`, {
                  month: monthName(chosenMonth),
                  name: employeeName ?? `#${state.employee_id}`,
                })}
              </Typography>
              {months.length > 1 && (
                <RadioGroup
                  aria-label={translate("sia.timesheet_more.which_month")}
                  value={chosenMonth}
                  onChange={(e) => setMonth(e.target.value)}
                >
                  {months.map((m) => (
                    <FormControlLabel key={m} value={m} control={<Radio />} label={monthName(m)} />
                  ))}
                </RadioGroup>
              )}
            </Stack>
          ) : asking === "close_activities" && !isAdmin ? (
            messages.confirmCloseWeek
          ) : asking ? (
            ask(asking)
          ) : (
            ""
          )
        }
        confirm="sia.common.confirm"
        cancel="sia.common.cancel"
        onConfirm={() => {
          const verb = asking;
          setAsking(null);
          setMonth(null);
          if (verb) props.onFreeze(verb, isMonthVerb(verb) ? (chosenMonth ?? undefined) : undefined);
        }}
        onClose={() => {
          setAsking(null);
          setMonth(null);
        }}
      />
    </>
  );
}
