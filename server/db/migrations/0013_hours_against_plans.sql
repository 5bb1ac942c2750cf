CREATE TABLE "project_budget_alerts" (
	"project_id" integer PRIMARY KEY NOT NULL,
	"threshold" integer NOT NULL,
	"estimate_hours" numeric(10, 2) NOT NULL,
	"sent_on" date NOT NULL,
	CONSTRAINT "project_budget_alerts_threshold" CHECK ("project_budget_alerts"."threshold" in (50, 80, 100))
);
--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "daily_hours" numeric(4, 2) DEFAULT 8 NOT NULL;--> statement-breakpoint
ALTER TABLE "project_budget_alerts" ADD CONSTRAINT "project_budget_alerts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_daily_hours" CHECK ("employees"."daily_hours" >= 0 and "employees"."daily_hours" <= 24);