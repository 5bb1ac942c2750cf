/** A client's "Horas de soporte del año": support hours used per product against its annual hours. */
import ChevronLeftIcon from "@mui/icons-material/ChevronLeft";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import { Box, IconButton, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type Identifier, useDataProvider, useTranslate } from "react-admin";
import { businessToday } from "../../core/week";
import type { ClientDashboard, SiaDataProvider } from "../../dataProvider";
import { DashboardCard, EmptyState, formatHours, hoursAxis, hoursFormatter, Loaded, useChartLocale } from "./chartKit";

const percent = new Intl.NumberFormat("es-MX", { style: "percent", maximumFractionDigits: 1 });

function SupportCharts({ data }: { data: ClientDashboard }) {
  const translate = useTranslate();
  const localeText = useChartLocale();
  if (data.by_product.length === 0) return <EmptyState text={translate("sia.dashboards.client.empty", { year: data.year })} />;
  const names = data.by_product.map((p) => p.product_name ?? translate("sia.dashboards.client.no_product"));
  return (
    <Box>
      <Typography sx={{ fontWeight: 600 }} data-testid="client-support-totals">
        {translate("sia.dashboards.client.totals", {
          used: formatHours(data.used_hours),
          annual: formatHours(data.annual_support_hours),
          year: data.year,
        })}
      </Typography>
      <Stack direction={{ xs: "column", lg: "row" }} spacing={2} sx={{ alignItems: "center" }}>
        <Box sx={{ flex: 2, minWidth: 0, width: "100%" }} data-testid="client-support-chart">
          <BarChart
            height={Math.max(180, 60 * names.length + 80)}
            localeText={localeText}
            layout="horizontal"
            yAxis={[{ scaleType: "band", data: names, width: 140 }]}
            xAxis={[hoursAxis]}
            grid={{ vertical: true }}
            series={[
              {
                id: "annual",
                label: translate("sia.dashboards.client.annual"),
                color: "#90a4ae",
                data: data.by_product.map((p) => p.annual_support_hours ?? 0),
                valueFormatter: hoursFormatter,
              },
              {
                id: "used",
                label: translate("sia.dashboards.client.used"),
                color: "#f57c00",
                data: data.by_product.map((p) => p.used_hours),
                valueFormatter: hoursFormatter,
              },
            ]}
          />
        </Box>
        <Table size="small" sx={{ flex: 1 }} aria-label={translate("sia.dashboards.client.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{translate("sia.dashboards.client.product")}</TableCell>
              <TableCell align="right">{translate("sia.dashboards.client.used")}</TableCell>
              <TableCell align="right">{translate("sia.dashboards.client.annual")}</TableCell>
              <TableCell align="right">{translate("sia.dashboards.client.usage")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.by_product.map((p, i) => (
              <TableRow key={p.product_id ?? "none"}>
                <TableCell>{names[i]}</TableCell>
                <TableCell align="right">{formatHours(p.used_hours)}</TableCell>
                <TableCell align="right">{p.annual_support_hours === null ? "—" : formatHours(p.annual_support_hours)}</TableCell>
                <TableCell align="right">
                  {p.annual_support_hours ? percent.format(p.used_hours / p.annual_support_hours) : "—"}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Stack>
    </Box>
  );
}

export default function ClientSupportPanel({ clientId }: { clientId: Identifier }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const thisYear = Number(businessToday().slice(0, 4));
  const [year, setYear] = useState(thisYear);
  const query = useQuery({
    queryKey: ["dashboards", "client", String(clientId), year],
    queryFn: ({ signal }) => dataProvider.clientDashboard(clientId, year, signal),
  });
  const navigation = (
    <Stack direction="row" sx={{ alignItems: "center" }}>
      <IconButton aria-label={translate("sia.dashboards.client.previous")} onClick={() => setYear((y) => y - 1)}>
        <ChevronLeftIcon />
      </IconButton>
      <Typography component="span" aria-label={translate("sia.dashboards.client.year")} data-testid="client-support-year">
        {year}
      </Typography>
      <IconButton
        aria-label={translate("sia.dashboards.client.next")}
        onClick={() => setYear((y) => y + 1)}
        disabled={year >= thisYear}
      >
        <ChevronRightIcon />
      </IconButton>
    </Stack>
  );
  return (
    <DashboardCard title={translate("sia.dashboards.client.title")} action={navigation} testId="client-support-panel">
      <Loaded query={query}>{(data) => <SupportCharts data={data} />}</Loaded>
    </DashboardCard>
  );
}
