import { Alert } from "@mui/material";
import { BooleanInput } from "react-admin";
import { useFormState, useWatch } from "react-hook-form";

/**
 * When the server named look-alike clients (same name without case, accents or spaces, or same RFC), the
 * warning and the box that confirms this is another client; a new save then carries `confirm_similar`.
 * Hidden until then: most clients have no look-alike.
 */
export function SimilarClientConfirm() {
  const { errors } = useFormState({ name: "confirm_similar" });
  const confirmed = useWatch({ name: "confirm_similar" });
  const warning = errors.confirm_similar?.message;
  if (!warning && confirmed !== true) return null;
  return (
    <>
      {warning ? (
        <Alert severity="warning" role="alert" sx={{ mb: 1, width: "100%" }}>
          {String(warning)}
        </Alert>
      ) : null}
      <BooleanInput source="confirm_similar" label="sia.admin_access.confirm_similar" helperText={false} />
    </>
  );
}
