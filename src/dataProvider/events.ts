/**
 * What the data layer needs the screens to do (a toast per field of a 422), published as browser
 * events: the dataProvider has no hooks, so a component in the layout listens and acts.
 */
export interface ApiEvents {
  "sia:field-errors": { messages: string[] };
  /** The stamp of the signed-in user an answer carried (src/core/session.ts, SESSION_STAMP_HEADER). */
  "sia:session-stamp": { stamp: string };
}

export function emit<K extends keyof ApiEvents>(name: K, detail: ApiEvents[K]) {
  if (typeof window !== "undefined") window.dispatchEvent(new CustomEvent(name, { detail }));
}

export function listen<K extends keyof ApiEvents>(name: K, handler: (detail: ApiEvents[K]) => void) {
  const listener = (event: Event) => handler((event as CustomEvent<ApiEvents[K]>).detail);
  window.addEventListener(name, listener);
  return () => window.removeEventListener(name, listener);
}
