import { describe, expect, it } from "vitest";
import { handleOf, mentionedHandles, tokenizeMessage } from "../../src/core/schemas/board";

describe("board mentions and links", () => {
  it("finds @handles, once each, and not e-mail addresses", () => {
    expect(mentionedHandles("@Ana.Lopez y @beto, ¿vieron a@b.mx? (@ana.lopez) @carla.")).toEqual(["ana.lopez", "beto", "carla"]);
    expect(mentionedHandles("sin menciones @ ni correo x@y.com")).toEqual([]);
    expect(handleOf("Ana.Lopez@Empresa.MX")).toBe("ana.lopez");
  });

  it("turns only http(s) URLs into links; javascript: and HTML stay text", () => {
    expect(tokenizeMessage("ver https://a.mx/x?y=1, luego")).toEqual([
      { kind: "text", text: "ver " },
      { kind: "link", text: "https://a.mx/x?y=1", href: "https://a.mx/x?y=1" },
      { kind: "text", text: ", luego" },
    ]);
    const hostile = `<a href="javascript:alert(1)">x</a> javascript:alert(1) data:text/html,<script>`;
    expect(tokenizeMessage(hostile)).toEqual([{ kind: "text", text: hostile }]);
  });
});
