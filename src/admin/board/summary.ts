/** The menu's counters (GET notifications/summary), polled and refreshed on board activity; shared by the menu and the bell. */
import { useEffect, useState } from "react";
import { boardApi, type Summary } from "../../dataProvider/board";
import { BOARD_ACTIVITY_EVENT } from "./realtime";

const POLL_MS = 30_000;

export function useSummary(enabled = true): Summary | null {
  const [summary, setSummary] = useState<Summary | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let alive = true;
    const load = () =>
      boardApi
        .summary()
        .then((s) => alive && setSummary(s))
        .catch(() => {});
    load();
    const timer = setInterval(load, POLL_MS);
    window.addEventListener(BOARD_ACTIVITY_EVENT, load);
    return () => {
      alive = false;
      clearInterval(timer);
      window.removeEventListener(BOARD_ACTIVITY_EVENT, load);
    };
  }, [enabled]);
  return summary;
}
