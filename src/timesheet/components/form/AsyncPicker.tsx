/** A small search-as-you-type picker (MUI Autocomplete) for the activity form's references. */
import { Autocomplete, Box, CircularProgress, TextField, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslate } from "react-admin";

export interface PickerOption {
  id: number;
  label: string;
  /** Extra data of the option (e.g. 'Client' or 'Prospect'). */
  kind?: string;
  /** Shown beside the label in the list (e.g. a project's state). */
  detail?: string;
}

export function AsyncPicker(props: {
  label: string;
  value: PickerOption | null;
  onChange(option: PickerOption | null): void;
  search(text: string): Promise<PickerOption[]>;
  error?: string;
  /** Shown under the field when there is no error. */
  helperText?: string;
  disabled?: boolean;
  testId?: string;
}) {
  const { search } = props;
  const translate = useTranslate();
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
      noOptionsText={translate("sia.activity_form.no_options")}
      loadingText={translate("sia.activity_form.searching")}
      data-testid={props.testId}
      renderOption={({ key, ...optionProps }, option) => (
        <Box component="li" key={key} {...optionProps} sx={{ display: "flex", gap: 1 }}>
          <span>{option.label}</span>
          {option.detail && (
            <Typography variant="caption" color="text.secondary" sx={{ ml: "auto" }}>
              {option.detail}
            </Typography>
          )}
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label}
          size="small"
          error={!!props.error}
          helperText={props.error ?? props.helperText}
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
