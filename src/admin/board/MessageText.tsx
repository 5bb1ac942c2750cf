/** A board message as plain text; http(s) links clickable in a new tab, anything else (javascript:) stays text. */
import { Link } from "@mui/material";
import { tokenizeMessage } from "../../core/schemas/board";

export function MessageText({ body }: { body: string }) {
  return (
    <span style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
      {tokenizeMessage(body).map((token, i) =>
        token.kind === "link" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one immutable message
          <Link key={i} href={token.href} target="_blank" rel="noopener noreferrer">
            {token.text}
          </Link>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one immutable message
          <span key={i}>{token.text}</span>
        ),
      )}
    </span>
  );
}
