import { describe, expect, it } from "vitest";
import { publicAddress } from "../../server/config";

describe("the address e-mails link to", () => {
  it("is PUBLIC_URL when set", () => {
    expect(publicAddress({ PUBLIC_URL: "https://sia.firma.mx", HOST: "127.0.0.1", PORT: 3000 })).toBe("https://sia.firma.mx");
  });
  it("else the address and port the server listens on, never a bare localhost on port 80", () => {
    expect(publicAddress({ HOST: "127.0.0.1", PORT: 3377 })).toBe("http://127.0.0.1:3377");
    expect(publicAddress({ HOST: "0.0.0.0", PORT: 8080 })).toBe("http://localhost:8080");
    expect(publicAddress({ HOST: "::", PORT: 8080 })).toBe("http://localhost:8080");
    expect(publicAddress({ HOST: "::1", PORT: 8080 })).toBe("http://[::1]:8080");
    expect(new URL("/app/activities?semana=2026-11-16", publicAddress({ HOST: "0.0.0.0", PORT: 3000 })).toString()).toBe(
      "http://localhost:3000/app/activities?semana=2026-11-16",
    );
  });
});
