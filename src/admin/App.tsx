/**
 * Top-level routes: the sign-in and 404 pages stand outside the app frame; everything under /app is
 * react-admin (basename "/app", browser history, clean URLs).
 */
import { CssBaseline, ThemeProvider } from "@mui/material";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { PAGE_PATHS } from "../core/resources";
import { provideFieldLabels } from "../dataProvider";
import { AdminApp } from "./AdminApp";
import { fieldLabel } from "./i18n/fieldLabels";
import { NotFoundPage } from "./pages/NotFoundPage";
import { SignInPage } from "./pages/SignInPage";
import { theme } from "./theme";

// Before any call (main.tsx imports this module before the timesheet's prefetch): a refusal's toasts name
// each field by the label its form shows.
provideFieldLabels(fieldLabel);

export function App() {
  return (
    <BrowserRouter>
      <Routes>
        <Route
          path={PAGE_PATHS.signIn}
          element={
            <ThemeProvider theme={theme}>
              <CssBaseline />
              <SignInPage />
            </ThemeProvider>
          }
        />
        <Route
          path={PAGE_PATHS.notFound}
          element={
            <ThemeProvider theme={theme}>
              <CssBaseline />
              <NotFoundPage />
            </ThemeProvider>
          }
        />
        <Route path="/app/*" element={<AdminApp />} />
        <Route path="/" element={<Navigate to={PAGE_PATHS.activities} replace />} />
        <Route path="*" element={<Navigate to={PAGE_PATHS.notFound} replace />} />
      </Routes>
    </BrowserRouter>
  );
}
