/**
 * The one react-query client of the app, given to react-admin (`<Admin queryClient>`): its own lists and
 * the timesheet's queries share one cache, so a request started before the page mounts (the timesheet's
 * prefetch) is the one the page then reads, and a change invalidates both.
 */
import { QueryClient } from "@tanstack/react-query";

export const queryClient = new QueryClient();
