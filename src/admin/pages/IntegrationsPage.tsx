/**
 * /app/integrations (administrators): which adapter each port runs (an external service switched on by
 * environment variables, or SIA's local default) and a «Probar conexión» button per row whose answer shows
 * in the row (server/modules/integrations/routes.ts).
 */
import {
  Alert,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from "@mui/material";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useDataProvider, useTranslate } from "react-admin";
import type { IntegrationView, SiaDataProvider } from "../../dataProvider";
import { AdminPageGuard, errorText, QueryState, TableHeader } from "../common/AdminPage";

function IntegrationRow({ integration }: { integration: IntegrationView }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const check = useMutation({ mutationFn: () => dataProvider.checkIntegration(integration.port) });
  const result = check.isError ? { ok: false, message: errorText(check.error) } : check.data;
  return (
    <TableRow data-testid={`integration-${integration.port}`}>
      <TableCell>{integration.label}</TableCell>
      <TableCell>{translate(`sia.integrations.kinds.${integration.kind}`, { _: integration.kind })}</TableCell>
      <TableCell>
        <Chip
          size="small"
          color={integration.active ? "success" : "default"}
          label={translate(integration.active ? "sia.integrations.active" : "sia.integrations.local")}
        />
      </TableCell>
      <TableCell>
        <Typography variant="body2" component="code" sx={{ fontFamily: "monospace", wordBreak: "break-word" }}>
          {integration.variables.join(", ")}
        </Typography>
      </TableCell>
      <TableCell sx={{ minWidth: 260 }}>
        <Stack spacing={1} alignItems="flex-start">
          <Button
            variant="outlined"
            size="small"
            disabled={check.isPending}
            onClick={() => check.mutate()}
            aria-label={`${translate("sia.integrations.check")}: ${integration.label}`}
            startIcon={check.isPending ? <CircularProgress size={14} /> : undefined}
          >
            {translate(check.isPending ? "sia.integrations.checking" : "sia.integrations.check")}
          </Button>
          {result && !check.isPending && (
            <Alert
              severity={!result.ok ? "error" : integration.kind === "none" ? "info" : "success"}
              sx={{ py: 0 }}
              role="status"
            >
              {result.message}
            </Alert>
          )}
        </Stack>
      </TableCell>
    </TableRow>
  );
}

function IntegrationsCard() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const list = useQuery({ queryKey: ["sia", "integrations"], queryFn: () => dataProvider.listIntegrations() });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate("sia.integrations.intro")}
        </Typography>
        <QueryState query={list}>
          {(integrations) => (
            <Table size="small" aria-label={translate("sia.integrations.title")}>
              <TableHeader
                labels={[
                  "sia.integrations.service",
                  "sia.integrations.adapter",
                  "sia.integrations.status",
                  "sia.integrations.variables",
                ]}
                actions
              />
              <TableBody>
                {integrations.map((integration) => (
                  <IntegrationRow key={integration.port} integration={integration} />
                ))}
              </TableBody>
            </Table>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}

export function IntegrationsPage() {
  return (
    <AdminPageGuard resource="integrations" action="list" title="sia.integrations.title">
      <IntegrationsCard />
    </AdminPageGuard>
  );
}
