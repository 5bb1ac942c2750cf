/**
 * «Elegir archivo»: a real button that opens a hidden file input. A `<label>` styled as a button (MUI's
 * `component="label"`) opens the chooser on a click but takes no Enter or Space, so the keyboard could not
 * pick a file.
 */
import { Button, type ButtonProps } from "@mui/material";
import { type ReactNode, useRef } from "react";

export function FileChooserButton(
  props: Omit<ButtonProps, "onClick" | "onChange"> & {
    children: ReactNode;
    accept: string;
    /** The file chosen, or null when the choice was emptied. */
    onFile(file: File | null): void;
    /** The input's name for screen readers and tests. */
    inputLabel?: string;
    inputTestId?: string;
  },
) {
  const { children, accept, onFile, inputLabel, inputTestId, ...button } = props;
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button variant="outlined" {...button} onClick={() => input.current?.click()}>
        {children}
      </Button>
      <input
        ref={input}
        hidden
        type="file"
        accept={accept}
        aria-label={inputLabel}
        data-testid={inputTestId}
        onChange={(e) => {
          onFile(e.target.files?.[0] ?? null);
          // The same file chosen again is a change too.
          e.target.value = "";
        }}
      />
    </>
  );
}
