/** /app/changeLogSia: the version history, rendered from CHANGELOG.md (our own file, bundled at build time). */
import { Card, CardContent } from "@mui/material";
import { marked } from "marked";
import { Title, useTranslate } from "react-admin";
import changelog from "../../../CHANGELOG.md?raw";

const html = marked.parse(changelog, { async: false }) as string;

export function ChangelogPage() {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate("sia.menu.changelog")} />
      <CardContent
        className="changelog"
        sx={{ "& h1": { fontSize: "1.8rem" }, "& h2": { fontSize: "1.3rem", mt: 3 }, "& li": { mb: 0.5 } }}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: CHANGELOG.md is the project's own file, not user input.
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Card>
  );
}
