import { PGlite } from "@electric-sql/pglite";
const dir = process.argv[2];
const db = new PGlite(dir);
const r = await db.query("select id, employee_id, starts_on, state, return_reason, lock_version from week_reviews order by id");
console.log(r.rows);
const n = await db.query("select id, kind, week_start, message from notifications where kind='review'");
console.log(n.rows);
const a = await db.query("select * from audit_logs where auditable_type='WeekReview' order by id");
console.log(a.rows.map(x=>[x.auditable_id,x.old_value,x.new_value,x.comment]));
