import { describe, expect, it } from "vitest";
import { decodeText } from "../../server/ports/text/decode";

describe("decodeText: an uploaded file's encoding", () => {
  it("reads valid UTF-8 as UTF-8", () => {
    expect(decodeText(Buffer.from("Reunión ñandú", "utf8"))).toEqual({ text: "Reunión ñandú", encoding: "utf-8" });
  });
  it("drops a UTF-8 byte-order mark", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("BEGIN:VCALENDAR", "utf8")]);
    expect(decodeText(bytes).text).toBe("BEGIN:VCALENDAR");
  });
  it("reads bytes that are not UTF-8 as Windows-1252 (Excel on Spanish Windows)", () => {
    // «Reunión» with ó as 0xF3, «–» as 0x96 and «€» as 0x80: Windows-1252, not Latin-1.
    const bytes = Buffer.from([0x52, 0x65, 0x75, 0x6e, 0x69, 0xf3, 0x6e, 0x20, 0x96, 0x20, 0x80]);
    expect(decodeText(bytes)).toEqual({ text: "Reunión – €", encoding: "windows-1252" });
  });
  it("reads UTF-16 with its mark (Notepad's «Unicode»)", () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Año", "utf16le")]);
    expect(decodeText(le)).toEqual({ text: "Año", encoding: "utf-16le" });
  });
});
