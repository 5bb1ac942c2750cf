import LockIcon from "@mui/icons-material/Lock";
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Snackbar,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router-dom";
import { authProvider, SIGN_IN_NOTICE_KEY } from "../../authProvider";
import { APP_VERSION } from "../../core/constants";
import { PAGE_PATHS } from "../../core/resources";

/** /sign_in: e-mail and password (SSO joins here with the integrations issue). */
export function SignInPage() {
  const navigate = useNavigate();
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

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await authProvider.login({ email, password });
      setNotice(null);
      navigate(PAGE_PATHS.activities, { replace: true });
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
                Iniciar sesión
              </Typography>
              <Typography variant="body2" color="text.secondary">
                SIA · versión {APP_VERSION}
              </Typography>
            </Stack>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField
              label="Correo electrónico"
              type="email"
              name="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
            <TextField
              label="Contraseña"
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <Button type="submit" variant="contained" size="large" disabled={busy || !email || !password}>
              {busy ? <CircularProgress size={24} color="inherit" /> : "Entrar"}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
