import { Box, Button, Card, CardContent, Typography } from "@mui/material";
import { Link, Navigate } from "react-router-dom";
import { PAGE_PATHS } from "../../core/resources";
import { sia as labels } from "../i18n/es";

export function NotFoundPage() {
  return (
    <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", bgcolor: "grey.100" }}>
      <Card sx={{ maxWidth: 480 }}>
        <CardContent>
          <Typography variant="h3" component="h1" gutterBottom>
            404
          </Typography>
          <Typography variant="h6" gutterBottom>
            {labels.not_found.title}
          </Typography>
          <Typography sx={{ mb: 2 }}>{labels.not_found.message}</Typography>
          <Button variant="contained" component={Link} to={PAGE_PATHS.activities}>
            {labels.not_found.back_home}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}

/** react-admin's catch-all inside /app: unknown paths go to the 404 page. */
export function CatchAll() {
  return <Navigate to={PAGE_PATHS.notFound} replace />;
}
