/**
 * What writing answers from their schema (fast-json-stringify, docs/decisions/040) does to a list's
 * answer, beside JSON.stringify: `npx tsx bench/serialize.ts`. A page of 25 and of 1,000 records of
 * clients, projects and activities, shaped as their tables declare them (dates as Date, as drizzle reads
 * them), each serialiser alternated over the same rounds; microseconds per answer, medians.
 */
import { getTableColumns } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { serializerCompiler } from "../server/http/openapi";
import { recordSchema } from "../server/http/records";
import { listMeta, type ResourceDef } from "../server/http/resource";
import { resources } from "../server/modules";

function sample(def: ResourceDef, i: number): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(def.table)) as Array<[string, PgColumn]>) {
    if ((def.hidden ?? []).includes(key)) continue;
    if (!column.notNull && i % 3 === 0) row[key] = null;
    else if (column.dataType === "number" || column.dataType === "bigint") row[key] = i * 7 + key.length;
    else if (column.dataType === "boolean") row[key] = i % 2 === 0;
    else if (column.dataType === "date") row[key] = new Date(Date.UTC(2026, 0, 1 + (i % 300), 9, 30));
    else if (column.dataType === "string")
      row[key] =
        column.columnType === "PgNumeric"
          ? "12.50"
          : /Date/.test(column.columnType)
            ? `2026-03-${String(1 + (i % 28)).padStart(2, "0")}`
            : `Texto «${key}» número ${i} – Ñandú`;
    else row[key] = null;
  }
  for (const key of Object.keys(def.computed ?? {})) row[key] = i % 2 ? `Calculado ${i}` : i;
  for (const nested of def.nested ?? []) row[nested.name] = [{ id: i, product_id: 3 }];
  return row;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const lines = ["| list | rows | JSON.stringify µs | from schema µs | ratio |", "| --- | ---: | ---: | ---: | ---: |"];
for (const def of resources.filter((r) => ["clients", "projects", "activities"].includes(r.name))) {
  const schema = z.object({ [def.name]: z.array(recordSchema(def)), meta: listMeta });
  const write = serializerCompiler({ schema, httpStatus: "200" });
  for (const size of [25, 1000]) {
    const body = {
      [def.name]: Array.from({ length: size }, (_, i) => sample(def, i)),
      meta: { total_count: size, page: 1, per_page: size },
    };
    if (write(body) !== JSON.stringify(body)) throw new Error(`${def.name}: the two serialisers disagree`);
    const rounds = size === 25 ? 4000 : 200;
    const plain: number[] = [];
    const fast: number[] = [];
    for (let r = 0; r < rounds; r++) {
      let t = performance.now();
      JSON.stringify(body);
      plain.push(performance.now() - t);
      t = performance.now();
      write(body);
      fast.push(performance.now() - t);
    }
    const [a, b] = [median(plain) * 1000, median(fast) * 1000];
    lines.push(`| ${def.name} | ${size} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)}× |`);
  }
}
console.log(lines.join("\n"));
process.exit(0);
