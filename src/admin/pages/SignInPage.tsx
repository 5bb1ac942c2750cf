import LockIcon from "@mui/icons-material/Lock";
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  Snackbar,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { type FormEvent, useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { authProvider, SIGN_IN_NOTICE_KEY } from "../../authProvider";
import { completeSso, type EnabledSso, ssoConfig, ssoReturning, startSso } from "../../authProvider/sso";
import { APP_VERSION } from "../../core/constants";
import { messages } from "../../core/messages";
import { PAGE_PATHS } from "../../core/resources";
import { sia as labels } from "../i18n/es";

/** Where the address that sent here is kept while the identity provider's page is away (a full reload). */
const NEXT_KEY = "sia:signInNext";

/**
 * Where to go once signed in: the address that sent the person here (react-admin's redirect keeps it in the
 * location's state: a link in an e-mail to a week or a project opened while signed out), else the timesheet.
 * Only the app's own pages: anything else (another site, the sign-in page itself) goes to the timesheet.
 */
export function nextAddress(state: unknown): string {
  const next = state as { nextPathname?: unknown; nextSearch?: unknown } | null | undefined;
  const path = next?.nextPathname;
  if (typeof path !== "string" || !/^\/app\/[\w-]/.test(path) || path.startsWith(PAGE_PATHS.signIn)) return PAGE_PATHS.activities;
  const search = typeof next?.nextSearch === "string" && next.nextSearch.startsWith("?") ? next.nextSearch : "";
  return path + search;
}

const parsed = (text: string | null): unknown => {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
};

/**
 * /sign_in: e-mail and password, and — when the server has an identity provider configured — its button
 * (Microsoft Entra ID or any OpenID Connect provider, src/authProvider/sso.ts). Both end in the same session.
 */
export function SignInPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const next = nextAddress(location.state);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Kept until it is closed or the user signs in: the page may mount twice on the way here.
  const [notice, setNoticeState] = useState<string | null>(() => sessionStorage.getItem(SIGN_IN_NOTICE_KEY));
  const setNotice = (text: string | null) => {
    if (!text) sessionStorage.removeItem(SIGN_IN_NOTICE_KEY);
    setNoticeState(text);
  };

  const [sso, setSso] = useState<EnabledSso | null>(null);
  const [ssoBusy, setSsoBusy] = useState(false);

  // The provider's button when configured; on the way back from the provider, its ID token signs in.
  useEffect(() => {
    let live = true;
    const returning = ssoReturning();
    if (returning) setSsoBusy(true);
    void (async () => {
      const config = await ssoConfig();
      if (!live) return;
      setSso(config);
      if (!config || !returning) return setSsoBusy(false);
      try {
        if (!(await completeSso(config))) return;
        sessionStorage.removeItem(SIGN_IN_NOTICE_KEY);
        const back = sessionStorage.getItem(NEXT_KEY);
        sessionStorage.removeItem(NEXT_KEY);
        if (live) navigate(nextAddress(parsed(back)), { replace: true });
      } catch (e) {
        // The provider's own errors (cancelled, refused) are MSAL's, in English: the user reads ours.
        const status = (e as { status?: number }).status;
        if (live) setError(status && status !== 401 ? (e as Error).message : messages.invalidCredentials);
      } finally {
        if (live) setSsoBusy(false);
      }
    })();
    return () => {
      live = false;
    };
  }, [navigate]);

  async function signInWithProvider() {
    if (!sso || ssoBusy) return;
    setSsoBusy(true);
    setError(null);
    try {
      sessionStorage.setItem(NEXT_KEY, JSON.stringify(location.state ?? null));
      await startSso(sso);
    } catch {
      setError(messages.ssoUnavailable);
      setSsoBusy(false);
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await authProvider.login({ email, password });
      setNotice(null);
      navigate(next, { replace: true });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", bgcolor: "grey.100", p: 2 }}>
      <Snackbar
        open={Boolean(notice)}
        autoHideDuration={6000}
        onClose={() => setNotice(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Alert severity="warning" variant="filled" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      </Snackbar>
      <Card sx={{ width: "100%", maxWidth: 400 }} component="main">
        <CardContent>
          <Stack spacing={2} component="form" onSubmit={submit} noValidate>
            <Stack alignItems="center" spacing={1}>
              <Avatar sx={{ bgcolor: "primary.main" }}>
                <LockIcon />
              </Avatar>
              <Typography variant="h5" component="h1">
                {labels.sign_in.title}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {labels.sign_in.version} {APP_VERSION}
              </Typography>
            </Stack>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label={labels.sign_in.email}
              type="email"
              name="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <TextField
              label={labels.sign_in.password}
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Button type="submit" variant="contained" size="large" disabled={busy || !email || !password}>
              {busy ? <CircularProgress size={24} color="inherit" /> : labels.sign_in.submit}
            </Button>
            {sso && (
              <>
                <Divider>{labels.sign_in.or}</Divider>
                <Button variant="outlined" size="large" onClick={signInWithProvider} disabled={ssoBusy || busy}>
                  {ssoBusy ? (
                    <CircularProgress size={24} color="inherit" aria-label={labels.sign_in.provider_busy} />
                  ) : (
                    sso.button_label
                  )}
                </Button>
              </>
            )}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
