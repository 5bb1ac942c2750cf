/**
 * What a record screen shows when its record cannot be loaded: a record that does not exist goes to the
 * /404 page (SPEC §8); any other failure is explained in place. Passed as `error` to every <Show error={recordError}> and
 * <Edit error={recordError}>, which also keeps react-admin from sending the user back to the list.
 */
import { Alert } from "@mui/material";
import { useContext } from "react";
import { EditContext, ShowContext } from "react-admin";
import { Navigate } from "react-router-dom";
import { messages } from "../../core/messages";
import { PAGE_PATHS } from "../../core/resources";

export function RecordError() {
  const show = useContext(ShowContext);
  const edit = useContext(EditContext);
  const error = (show ?? edit)?.error as { status?: number; message?: string } | null | undefined;
  if (error?.status === 404) return <Navigate to={PAGE_PATHS.notFound} replace />;
  return (
    <Alert severity="error" sx={{ mt: 2 }}>
      {error?.message || messages.unexpected}
    </Alert>
  );
}

export const recordError = <RecordError />;
