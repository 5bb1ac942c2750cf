import { Fragment, type ReactNode } from "react";
import { useTranslate } from "react-admin";

/**
 * A catalogue text whose placeholders are elements (a file name in <strong>, a sample in <code>):
 * polyglot interpolates strings only, so each placeholder travels as a marker and is swapped back.
 */
export function RichText({ message, values }: { message: string; values: Record<string, ReactNode> }) {
  const translate = useTranslate();
  const elements = Object.values(values);
  const markers = Object.fromEntries(Object.keys(values).map((name, i) => [name, `\u0000${i}\u0000`]));
  // Split on the markers: odd parts are the placeholders' positions, even parts the text between them.
  const parts = translate(message, markers).split("\u0000");
  return (
    <>
      {parts.map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
        i % 2 ? <Fragment key={i}>{elements[Number(part)]}</Fragment> : part,
      )}
    </>
  );
}
