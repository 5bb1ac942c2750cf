/** A small search-as-you-type picker (MUI Autocomplete) for the activity modal's references. */
import { Autocomplete, CircularProgress, TextField } from "@mui/material";
import { useEffect, useState } from "react";

export interface PickerOption {
  id: number;
  label: string;
  /** Extra data of the option (e.g. 'Client' or 'Prospect'). */
  kind?: string;
}

export function AsyncPicker(props: {
  label: string;
  value: PickerOption | null;
  onChange(option: PickerOption | null): void;
  search(text: string): Promise<PickerOption[]>;
  error?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const { search } = props;
  const [input, setInput] = useState("");
  const [options, setOptions] = useState<PickerOption[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    let alive = true;
    setLoading(true);
    const timer = setTimeout(() => {
      search(input)
        .then((found) => alive && setOptions(found))
        .catch(() => alive && setOptions([]))
        .finally(() => alive && setLoading(false));
    }, 250);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [input, search]);
  return (
    <Autocomplete
      value={props.value}
      options={
        props.value && !options.some((o) => o.id === props.value?.id && o.kind === props.value?.kind)
          ? [props.value, ...options]
          : options
      }
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(a, b) => a.id === b.id && a.kind === b.kind}
      filterOptions={(x) => x}
      onInputChange={(_e, text, reason) => reason === "input" && setInput(text)}
      onChange={(_e, option) => props.onChange(option)}
      disabled={props.disabled}
      loading={loading}
      noOptionsText="Sin resultados"
      loadingText="Buscando…"
      data-testid={props.testId}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          size="small"
          error={!!props.error}
          helperText={props.error}
          slotProps={{
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {loading ? <CircularProgress size={16} /> : null}
                  {params.InputProps.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
