/** Numbered pager with a window of 10 pages (SPEC §2), 10 rows a page. */
import FirstPageIcon from "@mui/icons-material/FirstPage";
import LastPageIcon from "@mui/icons-material/LastPage";
import NavigateBeforeIcon from "@mui/icons-material/NavigateBefore";
import NavigateNextIcon from "@mui/icons-material/NavigateNext";
import { Button, IconButton, Stack, Typography } from "@mui/material";
import { useListContext, useTranslate } from "react-admin";
import { PAGER_WINDOW } from "../../core/constants";

export function pageWindow(page: number, pages: number, size = PAGER_WINDOW): number[] {
  if (pages <= 0) return [];
  const half = Math.floor(size / 2);
  const start = Math.max(1, Math.min(page - half + 1, pages - size + 1));
  const end = Math.min(pages, start + size - 1);
  return Array.from({ length: end - start + 1 }, (_, i) => start + i);
}

export function SiaPagination() {
  const { page, perPage, total, setPage, isPending } = useListContext();
  const translate = useTranslate();
  if (isPending || !total) return null;
  const pages = Math.ceil(total / perPage);
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <Stack
      direction="row"
      alignItems="center"
      justifyContent="flex-end"
      spacing={0.5}
      sx={{ p: 1, flexWrap: "wrap" }}
      component="nav"
      aria-label={translate("sia.pagination.label")}
    >
      <Typography variant="body2" sx={{ mr: 2 }}>
        {translate("sia.pagination.range", { first, last, total })}
      </Typography>
      <IconButton size="small" aria-label={translate("sia.pagination.first")} disabled={page <= 1} onClick={() => setPage(1)}>
        <FirstPageIcon />
      </IconButton>
      <IconButton
        size="small"
        aria-label={translate("sia.pagination.previous")}
        disabled={page <= 1}
        onClick={() => setPage(page - 1)}
      >
        <NavigateBeforeIcon />
      </IconButton>
      {pageWindow(page, pages).map((n) => (
        <Button
          key={n}
          size="small"
          variant={n === page ? "contained" : "text"}
          aria-current={n === page ? "page" : undefined}
          aria-label={translate("sia.pagination.page", { n })}
          onClick={() => setPage(n)}
          sx={{ minWidth: 36 }}
        >
          {n}
        </Button>
      ))}
      <IconButton
        size="small"
        aria-label={translate("sia.pagination.next")}
        disabled={page >= pages}
        onClick={() => setPage(page + 1)}
      >
        <NavigateNextIcon />
      </IconButton>
      <IconButton
        size="small"
        aria-label={translate("sia.pagination.last")}
        disabled={page >= pages}
        onClick={() => setPage(pages)}
      >
        <LastPageIcon />
      </IconButton>
    </Stack>
  );
}
