/**
 * What every port adapter has in common, so the administrators' «Integraciones» page can say which
 * adapter each port runs and test it: `kind` names the adapter ("local", "google", "smtp", …) and
 * `check()` reaches the provider the way real work would, resolving when it answers and throwing an
 * Error with a Spanish reason when it does not. A local default's check verifies only what it needs
 * on this machine (its folder, say).
 */
export interface Integration {
  readonly kind: string;
  check(): Promise<void>;
}
