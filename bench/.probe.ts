import { build } from "../server/app";
import { loadConfig } from "../server/config";
import { openPostgres } from "../server/db/client";
const url = "postgres://postgres@127.0.0.1:5432/sia_bench_dev";
const database = await openPostgres(url, 10);
const timings: string[] = [];
database.pool!.on("connect", (client: any) => {
  const orig = client.query.bind(client);
  client.query = (...a: any[]) => {
    const t0 = performance.now();
    const text = typeof a[0] === "string" ? a[0] : a[0]?.text;
    const res = orig(...a);
    if (res && typeof res.then === "function") res.then(() => timings.push(`${(performance.now() - t0).toFixed(1)}ms ${String(text).slice(0, 90)}`), () => {});
    return res;
  };
});
const app = await build({ config: { ...loadConfig(), DATABASE_URL: url, LOG_LEVEL: "silent" } as never, database });
const login = await app.inject({ method: "POST", url: "/api/v1/sessions", payload: { email: "bench@sia.local", password: "bench-secreto" } });
const { token } = login.json() as { token: string };
const [m] = await database.rows<any>((await import("drizzle-orm")).sql`select (select min(id) from projects) as project, (select min(id) from clients) as client, (select min(id) from products) as product, e.id as employee from employees e where e.id = (select min(id) from employees)`);
const monday = "2027-03-01";
const activities = Array.from({ length: 60 }, (_, i) => {
  const day = Math.floor(i / 12), slot = i % 12;
  const begins = new Date(Date.parse(`${monday}T14:00:00Z`) + day * 86400000 + slot * 2400000);
  return { begins_at: begins.toISOString(), ends_at: new Date(begins.getTime() + 2400000).toISOString(), description: `x ${i}`, activity_type_catalog_id: 3,
    ...(i % 3 === 0 ? { action_type: "support", ownerable_type: "Client", ownerable_id: m.client, product_catalog_id: m.product } : { action_type: "project", project_id: m.project }) };
});
const { sql } = await import("drizzle-orm");
for (let r = 0; r < 6; r++) {
  let n = 0; const l = () => n++; database.queryListeners.add(l);
  const t0 = performance.now();
  const v = await app.inject({ method: "POST", url: "/api/v1/activities/validate", payload: { activities }, headers: { authorization: `Bearer ${token}` } });
  const t1 = performance.now(); const nv = n;
  const b = await app.inject({ method: "POST", url: "/api/v1/activities/batch", payload: { activities }, headers: { authorization: `Bearer ${token}` } });
  const t2 = performance.now();
  database.queryListeners.delete(l);
  if (r === 5) console.log(timings.slice(-25).join("\n")); timings.length = 0;
  console.log(v.statusCode, b.statusCode, (t1 - t0).toFixed(1), (t2 - t1).toFixed(1), "queries", nv, n - nv, b.body.length);
  await database.rows(sql`delete from activities where begins_at >= '2027-03-01' and begins_at < '2027-03-08'`);
}
await app.close(); await database.close();
