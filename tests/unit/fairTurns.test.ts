/** The embedded database's fair turns (server/db/fairTurns.ts): owners take turns, one statement at a time. */
import { describe, expect, it } from "vitest";
import { asOwner, FairTurns } from "../../server/db/fairTurns";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("fair turns", () => {
  it("a colleague's one statement runs after at most one of a busy owner's, not after all of them", async () => {
    const turns = new FairTurns();
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const work = (label: string) => async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      order.push(label);
      running--;
    };
    const crowd = asOwner("u:1", () => Array.from({ length: 6 }, (_, i) => turns.run(work(`a${i}`))));
    const colleague = asOwner("u:2", () => turns.run(work("b")));
    await Promise.all([...crowd, colleague]);
    expect(order.indexOf("b")).toBeLessThanOrEqual(1);
    expect(order.filter((label) => label.startsWith("a"))).toEqual(["a0", "a1", "a2", "a3", "a4", "a5"]);
    expect(most).toBe(1);
  });

  it("a failed statement passes its error on and the next one still runs", async () => {
    const turns = new FairTurns();
    const failed = turns.run(async () => {
      throw new Error("falló");
    });
    await expect(failed).rejects.toThrow("falló");
    await expect(turns.run(async () => 7)).resolves.toBe(7);
  });
});
