/** The version the app shows is the package's, and the changelog it shows opens with it. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { APP_VERSION } from "../../src/core/constants";

const ROOT = path.resolve(import.meta.dirname, "..", "..");

describe("the version", () => {
  it("the app's APP_VERSION is package.json's, and CHANGELOG.md's newest entry is that version", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
    const newest = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8").match(/^## (\S+)/m)?.[1];
    expect(newest).toBe(pkg.version);
  });
});
