/** The menu's counters (GET notifications/summary), polled and refreshed on board activity; shared by the menu and the bell. */
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useDataProvider } from "react-admin";
import type { SiaDataProvider, Summary } from "../../dataProvider";
import { BOARD_ACTIVITY_EVENT } from "./realtime";

const POLL_MS = 30_000;

export function useSummary(enabled = true): Summary | null {
  const dataProvider = useDataProvider<SiaDataProvider>();
  // One query for the menu and the bell; a failed poll keeps the last counters and waits for the next one.
  const { data, refetch } = useQuery({
    queryKey: ["sia", "notifications", "summary"],
    queryFn: () => dataProvider.notificationSummary(),
    enabled,
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: false,
    retry: false,
  });
  useEffect(() => {
    if (!enabled) return;
    const load = () => void refetch();
    window.addEventListener(BOARD_ACTIVITY_EVENT, load);
    return () => window.removeEventListener(BOARD_ACTIVITY_EVENT, load);
  }, [enabled, refetch]);
  return enabled ? (data ?? null) : null;
}
