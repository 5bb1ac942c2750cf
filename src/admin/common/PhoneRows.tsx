/**
 * A list's rows on a phone: each record a stacked card of the same columns the table shows (the first as
 * its title, the others as «label value» lines that wrap), so no list is wider than the screen and every
 * list gets it from SiaList without declaring anything more.
 */
import { Box, LinearProgress, List, ListItem, type Theme, Typography, useMediaQuery } from "@mui/material";
import { Children, isValidElement, type ReactElement, type ReactNode } from "react";
import {
  Datagrid,
  type DatagridProps,
  type RaRecord,
  RecordContextProvider,
  useListContext,
  useResourceContext,
  useTranslate,
  useTranslateLabel,
} from "react-admin";
import { useNavigate } from "react-router-dom";
import { type ScreenKind, screenPath } from "../../core/resources";
import { withRowLink } from "./links";

interface ColumnProps {
  source?: string;
  label?: string | false;
}

/** Where a tap on the row leads, as the table's rowClick says (a path, a screen kind, or nowhere). */
async function destination(rowClick: DatagridProps["rowClick"], resource: string, record: RaRecord) {
  if (!rowClick) return false;
  if (typeof rowClick === "function") return rowClick(record.id, resource, record);
  return ["show", "edit"].includes(rowClick) ? screenPath(resource, rowClick as ScreenKind, record.id) : rowClick;
}

export function PhoneRows({
  children,
  rowClick,
  empty,
}: {
  children: ReactNode;
  rowClick?: DatagridProps["rowClick"];
  empty?: ReactNode;
}) {
  const { data, isPending } = useListContext();
  const resource = useResourceContext() as string;
  const translate = useTranslate();
  const translateLabel = useTranslateLabel();
  const navigate = useNavigate();
  const columns = Children.toArray(withRowLink(children, rowClick)).filter(isValidElement) as ReactElement<ColumnProps>[];
  if (isPending) return <LinearProgress />;
  if (!data?.length)
    return empty === undefined ? <Typography sx={{ p: 2 }}>{translate("ra.navigation.no_results")}</Typography> : empty;
  const [title, ...rest] = columns;
  const open = async (record: RaRecord) => {
    const to = await destination(rowClick, resource, record);
    if (to) navigate(to);
  };
  return (
    <List disablePadding data-testid="phone-rows">
      {data.map((record: RaRecord) => (
        <RecordContextProvider key={record.id} value={record}>
          <ListItem disablePadding divider>
            {/* The card is no button: the keyboard reaches the record by its link (withRowLink), and a tap
                anywhere on the card still opens it. */}
            <Box
              onClick={rowClick ? () => open(record) : undefined}
              sx={{
                display: "block",
                width: "100%",
                minWidth: 0,
                px: 2,
                py: 1,
                cursor: rowClick ? "pointer" : "default",
                ...(rowClick ? { "&:hover": { bgcolor: "action.hover" } } : {}),
              }}
            >
              {title && <Box sx={{ fontWeight: 600, overflowWrap: "anywhere", mb: 0.5 }}>{title}</Box>}
              {rest.map((column, index) => {
                const { source, label } = column.props;
                const text = label === false ? "" : translateLabel({ label, source, resource });
                return (
                  <Box
                    key={source ?? index}
                    sx={{ display: "flex", flexWrap: "wrap", columnGap: 1, alignItems: "baseline", minWidth: 0 }}
                  >
                    {text && (
                      <Typography component="span" variant="caption" color="text.secondary">
                        {text}
                      </Typography>
                    )}
                    <Box sx={{ minWidth: 0, overflowWrap: "anywhere" }}>{column}</Box>
                  </Box>
                );
              })}
            </Box>
          </ListItem>
        </RecordContextProvider>
      ))}
    </List>
  );
}

/** A table of a record's related rows (a show page's products, members…): the same rows as cards on a phone. */
export function SiaDatagrid({ children, rowClick, empty, ...props }: DatagridProps) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  if (phone)
    return (
      <PhoneRows rowClick={rowClick} empty={empty ?? null}>
        {children}
      </PhoneRows>
    );
  return (
    <Datagrid rowClick={rowClick} empty={empty} {...props}>
      {withRowLink(children, rowClick)}
    </Datagrid>
  );
}
