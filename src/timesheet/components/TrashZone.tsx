/** The drop zone that deletes what is dragged onto it (SPEC §2); the calendar asks whether a point is over it. */
import DeleteIcon from "@mui/icons-material/Delete";
import { Box } from "@mui/material";
import { forwardRef } from "react";
import { useTranslate } from "react-admin";

export const TrashZone = forwardRef<HTMLDivElement, { disabled?: boolean }>(function TrashZone({ disabled }, ref) {
  const translate = useTranslate();
  return (
    <Box
      ref={ref}
      data-testid="trash"
      aria-disabled={disabled || undefined}
      sx={{
        border: "2px dashed",
        borderColor: disabled ? "action.disabled" : "error.main",
        color: disabled ? "text.disabled" : "error.main",
        borderRadius: 1,
        px: 2,
        py: 1,
        display: "flex",
        alignItems: "center",
        gap: 1,
        minWidth: 220,
      }}
    >
      <DeleteIcon fontSize="small" /> {translate("sia.timesheet.trash")}
    </Box>
  );
});
