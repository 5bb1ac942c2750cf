import ConstructionIcon from "@mui/icons-material/Construction";
import { Card, CardContent, Stack, Typography } from "@mui/material";
import { Title, useTranslate } from "react-admin";

/** The page a path shows until its screen's issue lands. */
export function UnderConstruction({ title }: { title?: string }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={title ?? "SIA"} />
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center">
          <ConstructionIcon color="warning" fontSize="large" />
          <div>
            {title && <Typography variant="h6">{title}</Typography>}
            <Typography>{translate("sia.under_construction", { _: "Esta sección está en construcción" })}</Typography>
          </div>
        </Stack>
      </CardContent>
    </Card>
  );
}

export const underConstruction = (title: string) => () => <UnderConstruction title={title} />;
