/** The «Integraciones» page (GET integrations, POST integrations/:port/check): what the routes answer. */
import { z } from "zod";

/** One port on the page. */
export const integrationViewAnswer = z.object({
  port: z.string(),
  label: z.string(),
  kind: z.string(),
  active: z.boolean(),
  variables: z.array(z.string()),
});
export type IntegrationView = z.infer<typeof integrationViewAnswer>;

/** GET integrations. */
export const integrationListAnswer = z.object({ integrations: z.array(integrationViewAnswer) });

/** A connection test: a failure is {ok: false, message} in Spanish, not an HTTP error. */
export const integrationCheckAnswer = z.object({ ok: z.boolean(), message: z.string() });
export type IntegrationCheck = z.infer<typeof integrationCheckAnswer>;
