/** The «Integraciones» page (GET integrations, POST integrations/:port/check): what the routes answer. */

/** One port on the page. */
export interface IntegrationView {
  port: string;
  label: string;
  kind: string;
  active: boolean;
  variables: string[];
}

/** A connection test: a failure is {ok: false, message} in Spanish, not an HTTP error. */
export interface IntegrationCheck {
  ok: boolean;
  message: string;
}
