import { createTheme } from "@mui/material";
import { esES } from "@mui/material/locale";
import { defaultTheme } from "react-admin";
import { sia } from "./i18n/es";

/** Keyboard focus is always visible: a ring on whatever the keyboard reached (WCAG 2.4.7). */
const focusRing = { "&.Mui-focusVisible, &:focus-visible": { outline: "2px solid #0b4f8a", outlineOffset: 2 } };

/**
 * A person who asked their system for less motion (WCAG 2.3.3) gets none: toasts, dialogs and menus appear
 * and go at once instead of growing and fading (MUI's documented way: every transition `none`).
 */
const reducedMotion = typeof window !== "undefined" && Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);

export const theme = createTheme(
  {
    ...defaultTheme,
    ...(reducedMotion ? { transitions: { create: () => "none" } } : {}),
    // Status colours dark enough for 4.5:1 (WCAG 1.4.3): white on a chip or a notice, and the red of a
    // text button on react-admin's grey form toolbar. MUI's defaults give 3.1:1 (warning), 3.9:1 (info) and
    // 3.8:1 (error on grey 300).
    palette: {
      mode: "light",
      primary: { main: "#0b4f8a" },
      secondary: { main: "#1f6f5c" },
      error: { main: "#b71c1c" },
      warning: { main: "#b45309" },
      info: { main: "#0277bd" },
    },
    typography: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
    components: {
      ...defaultTheme.components,
      // Every spinner and bar, react-admin's included, has a name: a screen reader says what is loading.
      MuiCircularProgress: { defaultProps: { "aria-label": sia.common.loading } },
      MuiLinearProgress: { defaultProps: { "aria-label": sia.common.loading } },
      MuiButtonBase: { styleOverrides: { root: focusRing } },
      MuiLink: { styleOverrides: { root: focusRing } },
      // A disabled field's helper says why it cannot change: it is read, so it keeps a readable grey.
      MuiFormHelperText: {
        styleOverrides: { root: ({ theme }) => ({ "&.Mui-disabled": { color: theme.palette.text.secondary } }) },
      },
      // A screen's actions wrap to a second line where they do not fit (three on a phone's show screen),
      // instead of squeezing each other's labels past the screen's edge.
      RaTopToolbar: { styleOverrides: { root: { flexWrap: "wrap" } } },
    },
  },
  esES,
);
