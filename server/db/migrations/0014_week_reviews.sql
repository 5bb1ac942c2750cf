CREATE TABLE "week_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"employee_id" integer NOT NULL,
	"starts_on" date NOT NULL,
	"state" varchar(10) NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_by" integer,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" integer,
	"return_reason" text,
	"auto_approved" boolean DEFAULT false NOT NULL,
	"lock_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "week_reviews_state_check" CHECK ("week_reviews"."state" in ('submitted','approved','returned')),
	CONSTRAINT "week_reviews_monday" CHECK (extract(isodow from "week_reviews"."starts_on") = 1)
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "app_settings" ADD COLUMN "auto_approve_days" integer;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "week_start" date;--> statement-breakpoint
ALTER TABLE "week_reviews" ADD CONSTRAINT "week_reviews_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "week_reviews" ADD CONSTRAINT "week_reviews_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "week_reviews" ADD CONSTRAINT "week_reviews_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "week_reviews_unique" ON "week_reviews" USING btree ("employee_id","starts_on");--> statement-breakpoint
CREATE INDEX "week_reviews_state" ON "week_reviews" USING btree ("state","submitted_at");--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_auto_approve_days" CHECK ("app_settings"."auto_approve_days" between 1 and 60);--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('notice','mention','project','review'));