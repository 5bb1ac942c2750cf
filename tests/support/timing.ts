/**
 * A time bound for a test that proves something is not slow (a refusal comes at once, the event loop is
 * free), stretched by how busy the machine is: with a load average of L on C cores each process gets about
 * C/L of a core, so work that takes a second alone takes L/C seconds. The protections these bounds guard
 * miss them by far more (seconds to tens of seconds), so stretching never lets a regression through; it
 * keeps a test from failing because the CI machine's two cores were shared with another suite.
 */
import os from "node:os";

export const loadPerCore = () => Math.max(1, os.loadavg()[0] / Math.max(1, os.availableParallelism()));

/** `ms` on a quiet machine, stretched by the load per core, at most `cap` times `ms`. */
export const underLoad = (ms: number, cap = 3) => ms * Math.min(cap, loadPerCore());
