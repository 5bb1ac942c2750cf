/**
 * Closing and opening the week or the month (SPEC §4 freezing): what the signed-in user may do with the
 * shown employee's week, as the server answers it (GET activities/week_state), each asked first. A closed
 * week says so.
 */
import HourglassTopIcon from "@mui/icons-material/HourglassTop";
import LockIcon from "@mui/icons-material/Lock";
import SendIcon from "@mui/icons-material/Send";
import { Alert, Button, Chip, FormControlLabel, Radio, RadioGroup, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { Confirm, useTranslate } from "react-admin";
import { ReasonDialog } from "../../admin/common/ReasonDialog";
import { dayName } from "../../core/messages";
import { firstOfMonth, formatDate, sundayOf } from "../../core/week";
import type { FreezeVerb } from "../../dataProvider";
import { useSubmitPreview, type WeekState } from "../data/queries";
import { formatHours } from "../model/totals";

/** Each verb's button and its question, in the catalogue. */
const label = (verb: FreezeVerb) => `sia.timesheet.freeze.${verb}`;
const question = (verb: FreezeVerb) => `sia.timesheet.freeze_ask.${verb}`;

const isMonthVerb = (verb: FreezeVerb | null) => verb === "close_month_activities" || verb === "open_month_activities";
const MONTH_NAME = new Intl.DateTimeFormat("es-MX", { month: "long", year: "numeric", timeZone: "UTC" });
/** «noviembre de 2026» for a YYYY-MM-DD. */
const monthName = (date: string) => MONTH_NAME.format(new Date(`${firstOfMonth(date)}T12:00:00Z`));

export function FreezeButtons(props: {
  state: WeekState | null;
  /** Sends the shown week to review (its own employee, from its Friday on). */
  onSubmit(): void;
  /** The Monday shown: a month verb acts on its month, or on the week's other month when it spans two. */
  weekStart: string | null;
  /** Admins: every verb (the month too); others: closing their own week. */
  isAdmin: boolean;
  busy: boolean;
  /** Whose week it is, named in the question. */
  employeeName?: string;
  /**
   * `date`: a day of the month a month verb acts on (the Monday's when absent); `reason`: opening a week in
   * review or approved returns it to its employee with it.
   */
  onFreeze(verb: FreezeVerb, date?: string, reason?: string): void;
}) {
  const { state, isAdmin, busy, weekStart, employeeName } = props;
  const translate = useTranslate();
  const [asking, setAsking] = useState<FreezeVerb | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const preview = useSubmitPreview(weekStart, submitting);
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
  // An employee sends their week to review; closing it outright is an administrator's.
  if (isAdmin && !state.frozen && state.can_close) verbs.push("close_activities");
  if (state.frozen && state.frozen_kind === "week" && state.can_open) verbs.push("open_activities");
  if (isAdmin) verbs.push("close_month_activities", "open_month_activities");
  const review = state.review;
  const inReview = review?.state === "submitted";
  // Opening a week someone sent to review gives it back to them: it needs a reason.
  const reopening = asking === "open_activities" && review !== null && review.state !== "returned";
  const range = { from: formatDate(state.week_start), to: formatDate(state.week_end) };
  const figures = preview;
  return (
    <>
      {inReview && (
        <Chip
          icon={<HourglassTopIcon />}
          color="warning"
          size="small"
          data-testid="week-in-review"
          label={translate("sia.reviews.in_review")}
        />
      )}
      {state.frozen && !inReview && (
        <Chip
          icon={<LockIcon />}
          color="error"
          size="small"
          data-testid="week-closed"
          label={translate(`sia.timesheet_import.${state.frozen_kind === "month" ? "month_closed" : "week_closed"}`)}
        />
      )}
      {review?.state === "approved" && (
        <Typography variant="caption" color="text.secondary" data-testid="week-approved">
          {review.auto_approved
            ? translate("sia.reviews.approved_auto")
            : translate("sia.reviews.approved_by", { name: review.reviewer_name ?? "", when: formatDate(review.reviewed_at) })}
        </Typography>
      )}
      {state.can_submit && (
        <Button size="small" variant="contained" onClick={() => setSubmitting(true)} disabled={busy} startIcon={<SendIcon />}>
          {translate("sia.reviews.submit")}
        </Button>
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
        isOpen={submitting}
        title="sia.reviews.submit"
        content={
          <Stack spacing={1} data-testid="submit-week">
            <Typography>{translate("sia.reviews.submit_ask", range)}</Typography>
            {figures && (
              <Typography>
                {translate("sia.reviews.submit_total", {
                  logged: formatHours(figures.logged_hours),
                  expected: formatHours(figures.expected_hours),
                })}
              </Typography>
            )}
            {figures && figures.empty_days.length > 0 && (
              <Alert severity="warning" data-testid="submit-empty-days">
                {translate("sia.reviews.submit_empty_days", { days: figures.empty_days.map(dayName).join(", ") })}
              </Alert>
            )}
            <Typography variant="body2" color="text.secondary">
              {translate("sia.reviews.submit_after")}
            </Typography>
          </Stack>
        }
        confirm="sia.reviews.submit"
        cancel="sia.common.cancel"
        onConfirm={() => {
          setSubmitting(false);
          props.onSubmit();
        }}
        onClose={() => setSubmitting(false)}
      />
      <ReasonDialog
        open={reopening}
        title={label("open_activities")}
        text={translate(`sia.reviews.reopen_ask_${review?.state === "approved" ? "approved" : "submitted"}`, {
          ...range,
          name: employeeName ?? `#${state.employee_id}`,
        })}
        confirm={label("open_activities")}
        onConfirm={(reason) => {
          setAsking(null);
          props.onFreeze("open_activities", undefined, reason);
        }}
        onClose={() => setAsking(null)}
      />
      <Confirm
        isOpen={asking !== null && !reopening}
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

/**
 * A returned week says why, until it is sent again: to its employee, what to do; to an administrator
 * looking at it, that the person may correct it. The reason keeps its lines and wraps on a phone.
 */
export function ReturnedNotice(props: { state: WeekState | null; own: boolean }) {
  const translate = useTranslate();
  const review = props.state?.review;
  if (review?.state !== "returned") return null;
  return (
    <Alert severity="warning" sx={{ mb: 1, overflowWrap: "anywhere" }} data-testid="week-returned">
      <Typography variant="body2">{translate("sia.reviews.returned", { name: review.reviewer_name ?? "" })}</Typography>
      <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", fontStyle: "italic", my: 0.5 }}>
        {review.return_reason}
      </Typography>
      <Typography variant="body2">{translate(props.own ? "sia.reviews.returned_hint" : "sia.reviews.returned_other")}</Typography>
    </Alert>
  );
}

/** The grid's word on the week's review: in review, or approved (and by whom). */
export function WeekReviewChip(props: { state: WeekState | null }) {
  const translate = useTranslate();
  const review = props.state?.review;
  if (review?.state === "submitted")
    return (
      <Chip
        icon={<HourglassTopIcon />}
        color="warning"
        size="small"
        data-testid="week-in-review"
        label={translate("sia.reviews.in_review")}
      />
    );
  if (review?.state === "approved" && props.state?.frozen)
    return (
      <Chip
        icon={<LockIcon />}
        color="error"
        size="small"
        data-testid="week-closed"
        label={
          review.auto_approved
            ? translate("sia.reviews.approved_auto")
            : translate("sia.reviews.approved_by", { name: review.reviewer_name ?? "", when: formatDate(review.reviewed_at) })
        }
      />
    );
  return null;
}
