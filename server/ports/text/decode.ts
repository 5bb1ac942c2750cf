/**
 * The text of an uploaded file whose encoding nobody declared (the .ics and CSV imports): a byte-order
 * mark decides (UTF-8, UTF-16 LE/BE); else the bytes are UTF-8 when they are valid UTF-8; else they are
 * Windows-1252, what Excel on Spanish Windows and older Windows calendar exporters write (a superset of
 * Latin-1 for every printable character). The mark itself is never part of the text.
 */
export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be" | "windows-1252";

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), encoding: "utf-8" };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le" };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder("utf-16be").decode(bytes.subarray(2)), encoding: "utf-16be" };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: windows1252(bytes), encoding: "windows-1252" };
  }
}

/**
 * Windows-1252's 0x80–0x9F (€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ); the five bytes it
 * leaves undefined keep their Latin-1 code point, as the WHATWG encoding standard says. Node 20's
 * TextDecoder("windows-1252") decodes this range as Latin-1 control characters, so it is mapped here.
 */
const HIGH_1252 = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f, 0x90,
  0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function windows1252(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    const codes = new Array<number>(chunk.length);
    for (let j = 0; j < chunk.length; j++) {
      const b = chunk[j];
      codes[j] = b >= 0x80 && b <= 0x9f ? HIGH_1252[b - 0x80] : b;
    }
    out += String.fromCharCode(...codes);
  }
  return out;
}
