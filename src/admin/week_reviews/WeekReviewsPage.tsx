/**
 * /app/week_reviews: the weeks the people of the reviewer's workspaces sent to review (all of them for an
 * administrator, never the reviewer's own). Each row has the week's hours against what was expected, by
 * group, and the working days short; «Ver semana» opens it read-only in the calendar. Approve one or many at
 * once, or return one with a reason. A desktop gets a table; a phone one card per week.
 */
import SendIcon from "@mui/icons-material/AssignmentReturn";
import CheckIcon from "@mui/icons-material/Check";
import VisibilityIcon from "@mui/icons-material/Visibility";
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from "@mui/material";
import type { Theme } from "@mui/material/styles";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import { dayName } from "../../core/messages";
import { formatDate } from "../../core/week";
import type { SiaDataProvider, WeekReview } from "../../dataProvider";
import { AdminPageGuard, errorText, QueryState } from "../common/AdminPage";
import { ReasonDialog } from "../common/ReasonDialog";

// FullCalendar loads only when a week is opened.
const ReviewCalendar = lazy(() => import("./ReviewCalendar"));

const REVIEWS_KEY = ["sia", "week_reviews", "submitted"] as const;
const SUMMARY_KEY = ["sia", "notifications", "summary"] as const;
const GROUPS = ["project", "support", "internal", "vacation"] as const;

const hours = (h: number) => `${Number.isInteger(h) ? h : h.toFixed(2)} h`;

function WeekOpen({ review, onClose }: { review: WeekReview; onClose(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const titleId = useId();
  const detail = useQuery({
    queryKey: ["sia", "week_reviews", "detail", review.id],
    queryFn: ({ signal }) => dataProvider.weekReview(review.id, signal),
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle id={titleId}>
        {review.employee_name} ·{" "}
        {translate("sia.reviews.week_of", { from: formatDate(review.starts_on), to: formatDate(review.ends_on) })}
      </DialogTitle>
      <DialogContent>
        <QueryState query={detail}>
          {(data) =>
            data.activities.length === 0 ? (
              <Typography>{translate("sia.reviews.no_activities")}</Typography>
            ) : (
              <Suspense fallback={null}>
                <ReviewCalendar weekStart={review.starts_on} activities={data.activities} phone={phone} />
              </Suspense>
            )
          }
        </QueryState>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate("sia.reviews.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

function ReviewsScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const client = useQueryClient();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("md"));
  const query = useQuery({ queryKey: REVIEWS_KEY, queryFn: ({ signal }) => dataProvider.weekReviews("submitted", null, signal) });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [returning, setReturning] = useState<WeekReview | null>(null);
  const [open, setOpen] = useState<WeekReview | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = async () => {
    await Promise.all([client.invalidateQueries({ queryKey: REVIEWS_KEY }), client.invalidateQueries({ queryKey: SUMMARY_KEY })]);
  };
  const act = async (work: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      notify((await work()).message, { type: "success" });
      setSelected(new Set());
    } catch (error) {
      notify(errorText(error), { type: "error" });
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const approve = (rows: WeekReview[]) =>
    act(() => dataProvider.approveWeeks(rows.map((r) => ({ id: r.id, lock_version: r.lock_version }))));

  const rows = query.data?.week_reviews ?? [];
  const chosen = rows.filter((r) => selected.has(r.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = rows.length > 0 && chosen.length === rows.length;
  const shortText = (r: WeekReview) =>
    r.figures.short_days.length
      ? r.figures.short_days.map((d) => `${dayName(d.date)}: ${hours(d.missing)}`).join("; ")
      : translate("sia.reviews.none_short");
  const total = (r: WeekReview) =>
    translate("sia.reviews.total_of", { logged: hours(r.figures.logged_hours), expected: hours(r.figures.expected_hours) });
  const week = (r: WeekReview) => `${formatDate(r.starts_on)} – ${formatDate(r.ends_on)}`;

  const actions = (r: WeekReview) => (
    <>
      <Button
        size="small"
        startIcon={<VisibilityIcon />}
        onClick={() => setOpen(r)}
        aria-label={translate("sia.reviews.view_one", { name: r.employee_name })}
      >
        {translate("sia.reviews.view")}
      </Button>
      <Button
        size="small"
        color="success"
        startIcon={<CheckIcon />}
        disabled={busy}
        onClick={() => void approve([r])}
        aria-label={translate("sia.reviews.approve_one", { name: r.employee_name })}
      >
        {translate("sia.reviews.approve")}
      </Button>
      <Button
        size="small"
        color="warning"
        startIcon={<SendIcon />}
        disabled={busy}
        onClick={() => setReturning(r)}
        aria-label={translate("sia.reviews.return_one", { name: r.employee_name })}
      >
        {translate("sia.reviews.return")}
      </Button>
    </>
  );

  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {translate("sia.reviews.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: "60rem" }}>
        {translate("sia.reviews.intro")}
      </Typography>
      <QueryState query={query}>
        {() =>
          rows.length === 0 ? (
            <Alert severity="info" data-testid="reviews-empty">
              {translate("sia.reviews.empty")}
            </Alert>
          ) : (
            <Stack spacing={2}>
              <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={allChosen}
                      indeterminate={chosen.length > 0 && !allChosen}
                      onChange={() => setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.id)))}
                    />
                  }
                  label={translate("sia.reviews.select_all")}
                />
                <Button
                  variant="contained"
                  color="success"
                  startIcon={<CheckIcon />}
                  disabled={busy || chosen.length === 0}
                  onClick={() => void approve(chosen)}
                >
                  {translate("sia.reviews.approve_selected", { count: chosen.length })}
                </Button>
              </Stack>
              {phone ? (
                rows.map((r) => (
                  <Card key={r.id} variant="outlined" component="section" aria-label={r.employee_name} data-testid="review-card">
                    <CardContent>
                      <FormControlLabel
                        control={<Checkbox checked={selected.has(r.id)} onChange={() => toggle(r.id)} />}
                        label={
                          <Typography variant="subtitle1" component="span">
                            {r.employee_name}
                          </Typography>
                        }
                      />
                      <Typography variant="body2">
                        {week(r)}
                        {r.workspace_name ? ` · ${r.workspace_name}` : ""}
                      </Typography>
                      <Typography variant="body2">
                        {translate("sia.reviews.columns.total")}: {total(r)}
                      </Typography>
                      <Typography variant="body2">
                        {GROUPS.map((g) => `${translate(`sia.reviews.columns.${g}`)} ${hours(r.figures.groups[g])}`).join(" · ")}
                      </Typography>
                      <Typography variant="body2">
                        {translate("sia.reviews.columns.short")}: {shortText(r)}
                      </Typography>
                    </CardContent>
                    <CardActions sx={{ flexWrap: "wrap" }}>{actions(r)}</CardActions>
                  </Card>
                ))
              ) : (
                <Box sx={{ overflowX: "auto" }}>
                  <Table size="small" aria-label={translate("sia.reviews.title")}>
                    <TableHead>
                      <TableRow>
                        <TableCell padding="checkbox" />
                        {["person", "week", "total", ...GROUPS, "short", "actions"].map((c) => (
                          <TableCell key={c}>{translate(`sia.reviews.columns.${c}`)}</TableCell>
                        ))}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {rows.map((r) => (
                        <TableRow key={r.id} data-testid="review-row">
                          <TableCell padding="checkbox">
                            <Checkbox
                              checked={selected.has(r.id)}
                              onChange={() => toggle(r.id)}
                              slotProps={{
                                input: { "aria-label": translate("sia.reviews.select_row", { name: r.employee_name }) },
                              }}
                            />
                          </TableCell>
                          <TableCell component="th" scope="row">
                            {r.employee_name}
                            {r.workspace_name && (
                              <Typography variant="caption" component="div" color="text.secondary">
                                {r.workspace_name}
                              </Typography>
                            )}
                          </TableCell>
                          <TableCell>{week(r)}</TableCell>
                          <TableCell>{total(r)}</TableCell>
                          {GROUPS.map((g) => (
                            <TableCell key={g}>{hours(r.figures.groups[g])}</TableCell>
                          ))}
                          <TableCell>{shortText(r)}</TableCell>
                          <TableCell sx={{ whiteSpace: "nowrap" }}>{actions(r)}</TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </Stack>
          )
        }
      </QueryState>
      {open && <WeekOpen review={open} onClose={() => setOpen(null)} />}
      <ReasonDialog
        open={returning !== null}
        title="sia.reviews.return_title"
        text={
          returning
            ? translate("sia.reviews.return_ask", {
                name: returning.employee_name,
                from: formatDate(returning.starts_on),
                to: formatDate(returning.ends_on),
              })
            : ""
        }
        confirm="sia.reviews.return"
        busy={busy}
        onConfirm={(reason) => {
          const r = returning;
          setReturning(null);
          if (r) void act(() => dataProvider.returnWeek(r.id, reason, r.lock_version));
        }}
        onClose={() => setReturning(null)}
      />
    </Box>
  );
}

export function WeekReviewsPage() {
  return (
    <AdminPageGuard resource="week_reviews" action="list" title="sia.reviews.title">
      <ReviewsScreen />
    </AdminPageGuard>
  );
}
