import { createTheme } from "@mui/material";
import { esES } from "@mui/material/locale";
import { defaultTheme } from "react-admin";

export const theme = createTheme(
  {
    ...defaultTheme,
    palette: { mode: "light", primary: { main: "#0b4f8a" }, secondary: { main: "#1f6f5c" } },
    typography: { fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif" },
  },
  esES,
);
