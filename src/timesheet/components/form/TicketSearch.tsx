/** The Azure DevOps ticket of a support activity: search, then choose; the chosen one is kept by id and name. */
import { Alert, AlertTitle, Button, MenuItem, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useTranslate } from "react-admin";
import { useFormContext, useWatch } from "react-hook-form";
import { messages } from "../../../core/messages";
import { fieldKey } from "./labels";
import type { ActivityFormValues } from "./types";
import { type TicketChoice, useTicketSearch } from "./useChoices";

export function TicketSearch({ disabled }: { disabled: boolean }) {
  const translate = useTranslate();
  const { control, getValues, setValue } = useFormContext<ActivityFormValues>();
  const [ticketId, ticketName] = useWatch({ control, name: ["ticket_id", "ticket_name"] });
  const searchTickets = useTicketSearch();
  const [text, setText] = useState("");
  const [tickets, setTickets] = useState<TicketChoice[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [searching, setSearching] = useState(false);

  const find = async () => {
    setError(null);
    setSearching(true);
    try {
      const [project_id, client_id, product_catalog_id] = getValues(["project_id", "ownerable_id", "product_catalog_id"]);
      setTickets(await searchTickets({ search: text, project_id, client_id, product_catalog_id }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSearching(false);
    }
  };

  return (
    <Stack spacing={1}>
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          label={translate("sia.activity_form.ticket_search")}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            // Enter searches; it must not submit the activity.
            if (e.key === "Enter") {
              e.preventDefault();
              find();
            }
          }}
          disabled={disabled}
          sx={{ flex: 1 }}
        />
        <Button onClick={find} disabled={disabled || searching}>
          {translate("sia.activity_form.ticket_find")}
        </Button>
      </Stack>
      {error && (
        <Alert severity="warning" data-testid="ticket-error">
          <AlertTitle>{messages.ticketsTitle}</AlertTitle>
          {error}
        </Alert>
      )}
      {tickets.length > 0 ? (
        <TextField
          select
          size="small"
          label={translate(fieldKey("ticket_id"))}
          value={ticketId ?? ""}
          disabled={disabled}
          onChange={(e) => {
            const t = tickets.find((x) => x.id === e.target.value);
            setValue("ticket_id", t?.id ?? null, { shouldDirty: true });
            setValue("ticket_name", t?.name ?? null, { shouldDirty: true });
          }}
        >
          {tickets.map((t) => (
            <MenuItem key={t.id} value={t.id}>
              {t.id} – {t.name}
            </MenuItem>
          ))}
        </TextField>
      ) : (
        ticketId && (
          <TextField size="small" label={translate(fieldKey("ticket_id"))} value={`${ticketId} – ${ticketName ?? ""}`} disabled />
        )
      )}
    </Stack>
  );
}
