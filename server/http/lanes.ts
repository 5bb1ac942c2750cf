/**
 * Lanes: at most `inFlight` holders per key at once, then at most `queued` waiting (in order, each for at
 * most `waitMs`), then refused at once. One key's crowd waits in its own lane, so it never delays another
 * key's holders: the fair share of the server per session and per user (server/http/fairShare.ts), and the
 * password hashes of sign-in (server/auth/passwords.ts, one lane for everybody).
 */

export interface LaneLimits {
  inFlight: number;
  queued: number;
  waitMs: number;
}

/** The lane is full, or the wait ran out: the caller answers «intente de nuevo» (429 with Retry-After). */
export class LaneBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("lane busy");
  }
}

/** Gives the place back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant: (release: Release) => void;
  timer: NodeJS.Timeout;
}

interface Lane {
  active: number;
  waiting: Waiter[];
}

export class Lanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly limits: () => LaneLimits) {}

  /** Holders and waiters of a key right now (tests and figures). */
  load(key: string) {
    const lane = this.lanes.get(key);
    return { active: lane?.active ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /** A place in the key's lane: at once, after a wait, or a LaneBusy. */
  acquire(key: string): Promise<Release> {
    const limits = this.limits();
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { active: 0, waiting: [] };
      this.lanes.set(key, lane);
    }
    if (lane.active < limits.inFlight) {
      lane.active++;
      return Promise.resolve(this.releaser(key, lane));
    }
    if (lane.waiting.length >= limits.queued) return Promise.reject(new LaneBusy(1));
    const current = lane;
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          const index = current.waiting.indexOf(waiter);
          if (index >= 0) current.waiting.splice(index, 1);
          this.drop(key, current);
          reject(new LaneBusy(Math.max(1, Math.ceil(limits.waitMs / 1000))));
        }, limits.waitMs),
      };
      waiter.timer.unref?.();
      current.waiting.push(waiter);
    });
  }

  private releaser(key: string, lane: Lane): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = lane.waiting.shift();
      if (next) {
        // The place passes to the next in line: the lane's count does not change.
        clearTimeout(next.timer);
        next.grant(this.releaser(key, lane));
        return;
      }
      lane.active--;
      this.drop(key, lane);
    };
  }

  private drop(key: string, lane: Lane) {
    if (lane.active === 0 && lane.waiting.length === 0 && this.lanes.get(key) === lane) this.lanes.delete(key);
  }
}
