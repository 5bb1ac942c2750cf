/**
 * Calendar helpers of the seed: a small deterministic PRNG and Mexico's official holidays. Dates and
 * times come from src/core/week.ts, like everywhere else.
 */

import { addDays, dayOfWeek, toIsoDate } from "../../../src/core/week";

/** mulberry32: tiny, fast and good enough for believable demo data. Same seed, same data. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const chance = (p: number) => next() < p;
  /** Picks a key by weight: { project: 70, internal: 30 }. */
  const weighted = <K extends string>(weights: Partial<Record<K, number>>): K => {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let roll = next() * total;
    for (const [key, w] of entries) {
      roll -= w;
      if (roll < 0) return key;
    }
    return entries[entries.length - 1][0];
  };
  const shuffle = <T>(items: readonly T[]): T[] => {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy;
  };
  return { next, int, pick, chance, weighted, shuffle };
}
export type Random = ReturnType<typeof createRandom>;

export interface Holiday {
  date: string;
  name: string;
}

/** The n-th Monday (1-based) of a month. */
function nthMonday(year: number, month: number, n: number): string {
  const first = toIsoDate(Date.UTC(year, month - 1, 1));
  const toMonday = (8 - dayOfWeek(first)) % 7;
  return addDays(first, toMonday + 7 * (n - 1));
}

/**
 * Mandatory rest days of Ley Federal del Trabajo art. 74: fixed dates, the three movable Mondays,
 * and 1 October every six years when the federal executive changes hands (2024, 2030, …).
 */
export function mexicanHolidays(year: number): Holiday[] {
  const list: Holiday[] = [
    { date: `${year}-01-01`, name: "Año Nuevo" },
    {
      date: nthMonday(year, 2, 1),
      name: "Día de la Constitución (5 de febrero)",
    },
    {
      date: nthMonday(year, 3, 3),
      name: "Natalicio de Benito Juárez (21 de marzo)",
    },
    { date: `${year}-05-01`, name: "Día del Trabajo" },
    { date: `${year}-09-16`, name: "Día de la Independencia" },
  ];
  if (year >= 2024 && (year - 2024) % 6 === 0) {
    list.push({
      date: `${year}-10-01`,
      name: "Transmisión del Poder Ejecutivo Federal",
    });
  }
  list.push(
    {
      date: nthMonday(year, 11, 3),
      name: "Día de la Revolución Mexicana (20 de noviembre)",
    },
    { date: `${year}-12-25`, name: "Navidad" },
  );
  return list;
}
