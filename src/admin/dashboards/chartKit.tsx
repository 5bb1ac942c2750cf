/**
 * What the dashboards' screens share: Spanish (es-MX) numbers and dates, the charts' Spanish texts, a
 * card frame, and the loading/error/empty states. Only the lazily loaded dashboard modules import this.
 */
import { Alert, Box, Card, CardContent, CardHeader, LinearProgress, Typography } from "@mui/material";
import type { ReactNode } from "react";
import { useTranslate } from "react-admin";
import { formatDate, parseIsoDate } from "../../core/week";
import { formatHours } from "../../timesheet/model/totals";

export { formatHours };

/** Texts the charts show themselves (MUI X has no Spanish catalogue). */
export function useChartLocale() {
  const translate = useTranslate();
  return { noData: translate("sia.dashboards.no_data"), loading: translate("sia.dashboards.loading") };
}

const weekdayDay = new Intl.DateTimeFormat("es-MX", { weekday: "short", day: "numeric", timeZone: "UTC" });

/** '10/03' of a 'YYYY-MM-DD': a chart's axis, where the year is the period's. */
export const shortDate = (date: string) => formatDate(date).slice(0, 5);
/** 'lun 10' of a 'YYYY-MM-DD'. */
export const weekdayDate = (date: string) => weekdayDay.format(new Date(parseIsoDate(date)));
/** '10/03/2025' of a 'YYYY-MM-DD' (src/core/week.ts). */
export const fullDate = (date: string) => formatDate(date);

const AXIS_NUMBER = new Intl.NumberFormat("es-MX", { maximumFractionDigits: 2 });
/**
 * An hours axis: from 0, ticks at least one hour apart, written as a person writes hours. Without a step and
 * a format, an axis whose values are all 0 gets ticks a millionth apart («0.000000»).
 */
export const hoursAxis = { min: 0, tickMinStep: 1, valueFormatter: (value: number) => AXIS_NUMBER.format(value) };

/** Hours for a chart's tooltip ('7.5 h'); nothing for a missing value. */
export const hoursFormatter = (value: number | null) => (value === null ? "" : formatHours(value));

export function DashboardCard({
  title,
  action,
  children,
  testId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Card variant="outlined" component="section" aria-label={title} data-testid={testId} sx={{ my: 2 }}>
      <CardHeader title={title} action={action} slotProps={{ title: { variant: "h6", component: "h2" } }} />
      <CardContent sx={{ pt: 0 }}>{children}</CardContent>
    </Card>
  );
}

/** Loading bar, the failure in Spanish, or the content. */
export function Loaded<T>({
  query,
  children,
}: {
  query: { data?: T; isPending: boolean; error: unknown };
  children: (data: T) => ReactNode;
}) {
  const translate = useTranslate();
  if (query.error) {
    return <Alert severity="error">{(query.error as Error)?.message || translate("sia.dashboards.failed")}</Alert>;
  }
  if (query.isPending || query.data === undefined) return <LinearProgress aria-label={translate("sia.dashboards.loading")} />;
  return <>{children(query.data)}</>;
}

export function EmptyState({ text }: { text: string }) {
  return (
    <Box sx={{ py: 3, textAlign: "center" }}>
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}

/** A subtitle inside a card. */
export function ChartTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="subtitle2" component="h3" sx={{ mt: 1 }}>
      {children}
    </Typography>
  );
}
