/** The page's view of the local saved week: state mirrored from localStorage through savedWeek.ts. */
import { useCallback, useState } from "react";
import type { SavedWeek } from "../core/localEvent";
import { loadSavedWeek, removeSavedWeek, storeSavedWeek } from "./savedWeek";

export function useSavedWeek() {
  const [week, setWeek] = useState<SavedWeek | null>(() => loadSavedWeek());

  /** Writes the week; on a full quota the previous saved week stays (and is shown) and false is answered. */
  const persist = useCallback((next: SavedWeek) => {
    if (storeSavedWeek(next).ok) {
      setWeek(next);
      return true;
    }
    setWeek(loadSavedWeek());
    return false;
  }, []);

  const clear = useCallback(() => {
    removeSavedWeek();
    setWeek(null);
  }, []);

  /** The stored week right now (another tab may have removed it). */
  const current = useCallback(() => {
    const stored = loadSavedWeek();
    setWeek(stored);
    return stored;
  }, []);

  return { week, persist, clear, current };
}
