/** The test app with one signed-in client per role: the setup most API suites start from. */
import { buildTestApp, type TestApp } from "./app";
import { type ApiClient, signInAs } from "./factories";

export interface AppWithRoles {
  t: TestApp;
  admin: ApiClient;
  operator: ApiClient;
  finance: ApiClient;
}

export async function buildAppWithRoles(env: Record<string, string> = {}): Promise<AppWithRoles> {
  const t = await buildTestApp(env);
  return {
    t,
    admin: (await signInAs(t.app, "admin")).api,
    operator: (await signInAs(t.app, "operator")).api,
    finance: (await signInAs(t.app, "finance")).api,
  };
}
