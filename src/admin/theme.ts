import { createTheme } from "@mui/material";
import { esES } from "@mui/material/locale";
import { defaultTheme } from "react-admin";
import { sia } from "./i18n/es";

/** Keyboard focus is always visible: a ring on whatever the keyboard reached (WCAG 2.4.7). */
const focusRing = { "&.Mui-focusVisible, &:focus-visible": { outline: "2px solid #0b4f8a", outlineOffset: 2 } };

export const theme = createTheme(
  {
    ...defaultTheme,
    palette: { mode: "light", primary: { main: "#0b4f8a" }, secondary: { main: "#1f6f5c" } },
    typography: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
    components: {
      ...defaultTheme.components,
      // Every spinner and bar, react-admin's included, has a name: a screen reader says what is loading.
      MuiCircularProgress: { defaultProps: { "aria-label": sia.common.loading } },
      MuiLinearProgress: { defaultProps: { "aria-label": sia.common.loading } },
      MuiButtonBase: { styleOverrides: { root: focusRing } },
      MuiLink: { styleOverrides: { root: focusRing } },
      // A screen's actions wrap to a second line where they do not fit (three on a phone's show screen),
      // instead of squeezing each other's labels past the screen's edge.
      RaTopToolbar: { styleOverrides: { root: { flexWrap: "wrap" } } },
    },
  },
  esES,
);
