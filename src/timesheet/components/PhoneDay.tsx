/**
 * The timesheet on a phone (below 600 px): one day at a time, changed by a swipe or the arrows, and the
 * header's actions folded behind one button so the day is what fills the screen.
 */
import TuneIcon from "@mui/icons-material/Tune";
import { Box, Button, Collapse, type Theme, useMediaQuery } from "@mui/material";
import { type ReactNode, type TouchEvent, useId, useRef, useState } from "react";
import { useTranslate } from "react-admin";

/** Whether the screen is a phone's. */
export const usePhone = () => useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));

/** The header's actions: as they are on a wider screen, behind «Acciones de la semana» on a phone. */
export function PhoneFold({ phone, children }: { phone: boolean; children: ReactNode }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!phone) return children;
  return (
    <>
      <Button
        startIcon={<TuneIcon />}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        data-testid="phone-actions"
      >
        {translate("sia.timesheet_phone.actions")}
      </Button>
      {/* Kept mounted while folded: the dialogs the actions open stay open when the fold closes. */}
      <Collapse in={open} id={id}>
        <Box sx={{ pt: 1 }}>{children}</Box>
      </Collapse>
    </>
  );
}

/** A sideways swipe of at least 60 px, more across than down: the previous or the next day. */
export function useSwipe(onPrevious: () => void, onNext: () => void) {
  const start = useRef<{ x: number; y: number } | null>(null);
  return {
    // Sideways the finger is ours, not the browser's: otherwise a swipe to the right, with the page no wider
    // than the screen, is taken by the browser as «back» and leaves the timesheet. Up and down still scroll.
    style: { touchAction: "pan-y pinch-zoom" },
    onTouchStart: (e: TouchEvent) => {
      const t = e.touches[0];
      start.current = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY } : null;
    },
    onTouchEnd: (e: TouchEvent) => {
      const from = start.current;
      const t = e.changedTouches[0];
      start.current = null;
      if (!from || !t) return;
      const dx = t.clientX - from.x;
      if (Math.abs(dx) < 60 || Math.abs(dx) < 2 * Math.abs(t.clientY - from.y)) return;
      if (dx > 0) onPrevious();
      else onNext();
    },
  };
}
