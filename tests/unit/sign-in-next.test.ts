import { describe, expect, it } from "vitest";
import { nextAddress } from "../../src/admin/pages/SignInPage";

describe("where signing in lands", () => {
  it("goes back to the app's page that sent here, with its query", () => {
    expect(nextAddress({ nextPathname: "/app/activities", nextSearch: "?semana=2026-11-16" })).toBe(
      "/app/activities?semana=2026-11-16",
    );
    expect(nextAddress({ nextPathname: "/app/projects/23" })).toBe("/app/projects/23");
  });
  it("anything else goes to the timesheet", () => {
    for (const state of [
      null,
      undefined,
      "texto",
      { nextPathname: "/" },
      { nextPathname: "//evil.example/app/x" },
      { nextPathname: "https://evil.example/app/x" },
      { nextPathname: "/sign_in" },
      { nextPathname: "/api/v1/sessions" },
      { nextPathname: 5 },
    ])
      expect(nextAddress(state), JSON.stringify(state)).toBe("/app/activities");
    expect(nextAddress({ nextPathname: "/app/clients", nextSearch: "javascript:alert(1)" })).toBe("/app/clients");
  });
});
