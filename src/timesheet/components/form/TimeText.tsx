/**
 * A time of day typed as HH:mm, 24-hour, whatever the browser's language: the browser's own time input
 * follows its locale and shows «09:00 AM» in es-MX. What is typed stays on screen while it is incomplete;
 * a whole time («9:00» or «09:00») is handed on at once, and leaving the field with anything else shows
 * the Spanish hint and puts the last good time back.
 */
import { TextField } from "@mui/material";
import { useEffect, useState } from "react";
import { useTranslate } from "react-admin";
import { readTime } from "../../../core/week";

export function TimeText(props: {
  label: string;
  value: string;
  disabled: boolean;
  error?: string;
  onChange(time: string): void;
}) {
  const translate = useTranslate();
  const [text, setText] = useState(props.value);
  const [wrong, setWrong] = useState(false);
  // A new value from the form (another field moved the times, a starter was chosen) replaces the text.
  useEffect(() => {
    setText(props.value);
    setWrong(false);
  }, [props.value]);
  const hint = wrong ? translate("sia.activity_form.time_invalid") : props.error;
  return (
    <TextField
      size="small"
      label={props.label}
      value={text}
      disabled={props.disabled}
      placeholder={translate("sia.activity_form.time_placeholder")}
      onChange={(e) => {
        setText(e.target.value);
        setWrong(false);
        const time = readTime(e.target.value);
        if (time && time === e.target.value.trim() && time !== props.value) props.onChange(time);
      }}
      onBlur={() => {
        const time = readTime(text);
        if (time) {
          setText(time);
          if (time !== props.value) props.onChange(time);
        } else if (text !== props.value) {
          setWrong(true);
          setText(props.value);
        }
      }}
      error={!!hint}
      helperText={hint}
      slotProps={{ inputLabel: { shrink: true }, htmlInput: { inputMode: "numeric", maxLength: 5, autoComplete: "off" } }}
      sx={{ flex: "1 1 0", minWidth: 0 }}
    />
  );
}
