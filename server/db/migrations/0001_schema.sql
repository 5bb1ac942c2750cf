CREATE TABLE "app_licenses" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"entity_name" varchar(300) NOT NULL,
	"entity_rfc" varchar(13) NOT NULL,
	"environment" varchar(10) DEFAULT 'prod' NOT NULL,
	"num_licenses" integer DEFAULT 1 NOT NULL,
	"license_valid_until" date,
	"license_type" varchar(30) DEFAULT 'rent' NOT NULL,
	"has_mesa_electronica_license_key" boolean DEFAULT false NOT NULL,
	"product_catalog_id" integer NOT NULL,
	"modules" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_licenses_environment" CHECK ("app_licenses"."environment" in ('prod','test')),
	CONSTRAINT "app_licenses_type" CHECK ("app_licenses"."license_type" in ('rent','concurrent_users','named_users')),
	CONSTRAINT "app_licenses_num" CHECK ("app_licenses"."num_licenses" >= 1),
	CONSTRAINT "app_licenses_modules" CHECK ("app_licenses"."modules" <@ array['Emission','Reception','Conciliation']::text[])
);
--> statement-breakpoint
CREATE TABLE "client_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(160) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "client_product_catalogs" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"product_catalog_id" integer NOT NULL,
	"annual_support_hours" numeric(8, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "client_product_catalogs_hours" CHECK ("client_product_catalogs"."annual_support_hours" >= 0)
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(200) NOT NULL,
	"client_code" varchar(40) NOT NULL,
	"rfc" varchar(13),
	"complete_name" varchar(300),
	"email" varchar(254),
	"is_production_ready" boolean DEFAULT false NOT NULL,
	"was_prospect" boolean DEFAULT false NOT NULL,
	"converted_to_prospect_by" integer,
	"client_group_id" integer,
	"drive_root_id" varchar(300),
	"drive_root_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_code" varchar(40) NOT NULL,
	"name" varchar(160) NOT NULL,
	"application_id" varchar(80),
	"employee_id" integer,
	"brochure_url" text,
	"brochure_id" varchar(200),
	"form_url" text,
	"form_id" varchar(200),
	"product_category" varchar(80),
	"is_selectable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_product_code_unique" UNIQUE("product_code")
);
--> statement-breakpoint
CREATE TABLE "prospects" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(200) NOT NULL,
	"drive_root_id" varchar(300),
	"drive_root_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quotations" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_name" varchar(200) NOT NULL,
	"prospect_id" integer,
	"product_catalog_id" integer NOT NULL,
	"event_url" text,
	"event_id" varchar(300),
	"event" jsonb,
	"audit_comment" text,
	"state" varchar(30) DEFAULT 'demo' NOT NULL,
	"client_id" integer,
	"project_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bosses_workspaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"workspace_id" integer NOT NULL,
	"employee_id" integer NOT NULL,
	CONSTRAINT "bosses_workspaces_ids" CHECK ("bosses_workspaces"."workspace_id" > 0 and "bosses_workspaces"."employee_id" > 0)
);
--> statement-breakpoint
CREATE TABLE "employee_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "employee_positions_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "employees" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(200) NOT NULL,
	"employee_code" varchar(40) DEFAULT '0' NOT NULL,
	"user_id" integer,
	"is_rape" boolean DEFAULT false NOT NULL,
	"is_admin_group" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"workspace_id" integer,
	"employee_position_id" integer,
	"assignable" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" varchar(254) NOT NULL,
	"ip" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" varchar(64) NOT NULL,
	"user_id" integer NOT NULL,
	"user_agent" varchar(500),
	"ip" varchar(64),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(200) NOT NULL,
	"email" varchar(254) NOT NULL,
	"password_digest" text,
	"administrator_role" boolean DEFAULT false NOT NULL,
	"operator_role" boolean DEFAULT false NOT NULL,
	"finance_role" boolean DEFAULT false NOT NULL,
	"can_chat" boolean DEFAULT false NOT NULL,
	"azure_token" text,
	"cloud_token_encrypted" text,
	"google_id" varchar(200),
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspaces" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"is_notifiable" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"auditable_type" varchar(40) NOT NULL,
	"auditable_id" integer NOT NULL,
	"field" varchar(60) NOT NULL,
	"old_value" text,
	"new_value" text,
	"comment" text,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "estimated_work_hours" (
	"id" serial PRIMARY KEY NOT NULL,
	"estimated_hours" numeric(8, 2) NOT NULL,
	"project_id" integer NOT NULL,
	"employee_position_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "estimated_work_hours_positive" CHECK ("estimated_work_hours"."estimated_hours" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"folio" varchar(60),
	"date_of_invoice" date,
	"percentage_value" numeric(5, 2) NOT NULL,
	"state" varchar(30) DEFAULT 'pendiente' NOT NULL,
	"audit_comment" text,
	"project_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_percentage" CHECK ("invoices"."percentage_value" > 0 and "invoices"."percentage_value" <= 100),
	CONSTRAINT "invoices_state" CHECK (state in ('pendiente','enviada','resuelto','cancelada'))
);
--> statement-breakpoint
CREATE TABLE "project_stages" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"event" varchar(40) NOT NULL,
	"from_state" varchar(30),
	"to_state" varchar(30) NOT NULL,
	"comment" text,
	"stage_date" date,
	"responsible_id" integer,
	"eta" date,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(120) NOT NULL,
	"color_tag" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_types_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_code" varchar(40) NOT NULL,
	"name" varchar(250) NOT NULL,
	"project_date" date,
	"eta" date,
	"audit_comment" text,
	"drive_root_id" varchar(300),
	"drive_root_url" text,
	"client_id" integer NOT NULL,
	"project_type_catalog_id" integer,
	"product_catalog_id" integer,
	"rape_id" integer,
	"pm_id" integer,
	"state" varchar(30) DEFAULT 'requerimiento' NOT NULL,
	"state_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"invoice_action" varchar(30),
	"estimate_hours_needed" boolean DEFAULT false NOT NULL,
	"color_tag" varchar(20),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_project_code_unique" UNIQUE("project_code"),
	CONSTRAINT "projects_state" CHECK (state in ('requerimiento','propuesta','en_ejecucion','validacion_cliente','autorizacion_cliente','garantia','terminado','cancelado','no_autorizado')),
	CONSTRAINT "projects_invoice_action" CHECK (invoice_action is null or invoice_action in ('partially_invoiced','completely_invoiced'))
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"employee_id" integer NOT NULL,
	"begins_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"description" text NOT NULL,
	"activity_type_catalog_id" integer,
	"action_type" varchar(20) NOT NULL,
	"ownerable_id" integer,
	"ownerable_type" varchar(20),
	"project_id" integer,
	"product_catalog_id" integer,
	"short_title" varchar(300),
	"ticket_id" varchar(60),
	"ticket_name" varchar(500),
	"is_favorite" boolean DEFAULT false NOT NULL,
	"update_by" integer,
	"is_editable" boolean DEFAULT true NOT NULL,
	"google_calendar_id" varchar(300),
	"google_calendar_event" jsonb,
	"import_key" varchar(300),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_range" CHECK ("activities"."ends_at" > "activities"."begins_at"),
	CONSTRAINT "activities_action_type" CHECK (action_type in ('project','support','quote','internal','rh','vacation')),
	CONSTRAINT "activities_ownerable" CHECK (("activities"."ownerable_type" is null and "activities"."ownerable_id" is null) or ("activities"."ownerable_type" in ('Client','Prospect') and "activities"."ownerable_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "activity_type_catalogs" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(4) NOT NULL,
	"name" varchar(120) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activity_type_catalogs_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "app_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"default_customer_id" integer,
	"default_workspace_id" integer,
	"support_excluded_customer_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "app_settings_single_row" CHECK ("app_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"employee_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"product_catalog_id" integer NOT NULL,
	"start_on" date NOT NULL,
	"end_on" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assignments_dates" CHECK ("assignments"."end_on" >= "assignments"."start_on")
);
--> statement-breakpoint
CREATE TABLE "calendar_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"series_key" varchar(300) NOT NULL,
	"mapping" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "frozen_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"employee_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"closed_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "frozen_periods_kind" CHECK ("frozen_periods"."kind" in ('week','month')),
	CONSTRAINT "frozen_periods_dates" CHECK ("frozen_periods"."ends_on" >= "frozen_periods"."starts_on")
);
--> statement-breakpoint
CREATE TABLE "holydays" (
	"id" serial PRIMARY KEY NOT NULL,
	"date" date NOT NULL,
	"name" varchar(160),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "holydays_date_unique" UNIQUE("date")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"job" varchar(60) NOT NULL,
	"period_key" varchar(60) NOT NULL,
	"status" varchar(20) DEFAULT 'done' NOT NULL,
	"detail" text,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"message" text NOT NULL,
	"author_name" varchar(200) NOT NULL,
	"user_id" integer,
	"workspace_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_message_reads" (
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"body" varchar(500) NOT NULL,
	"mentions" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_messages_length" CHECK (char_length("project_messages"."body") between 1 and 500)
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"endpoint" text NOT NULL,
	"keys" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "push_subscriptions_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
ALTER TABLE "app_licenses" ADD CONSTRAINT "app_licenses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_licenses" ADD CONSTRAINT "app_licenses_product_catalog_id_products_id_fk" FOREIGN KEY ("product_catalog_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_product_catalogs" ADD CONSTRAINT "client_product_catalogs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_product_catalogs" ADD CONSTRAINT "client_product_catalogs_product_catalog_id_products_id_fk" FOREIGN KEY ("product_catalog_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_converted_to_prospect_by_users_id_fk" FOREIGN KEY ("converted_to_prospect_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_client_group_id_client_groups_id_fk" FOREIGN KEY ("client_group_id") REFERENCES "public"."client_groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_prospect_id_prospects_id_fk" FOREIGN KEY ("prospect_id") REFERENCES "public"."prospects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_product_catalog_id_products_id_fk" FOREIGN KEY ("product_catalog_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotations" ADD CONSTRAINT "quotations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bosses_workspaces" ADD CONSTRAINT "bosses_workspaces_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bosses_workspaces" ADD CONSTRAINT "bosses_workspaces_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employees" ADD CONSTRAINT "employees_employee_position_id_employee_positions_id_fk" FOREIGN KEY ("employee_position_id") REFERENCES "public"."employee_positions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD CONSTRAINT "audit_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimated_work_hours" ADD CONSTRAINT "estimated_work_hours_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "estimated_work_hours" ADD CONSTRAINT "estimated_work_hours_employee_position_id_employee_positions_id_fk" FOREIGN KEY ("employee_position_id") REFERENCES "public"."employee_positions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_stages" ADD CONSTRAINT "project_stages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_stages" ADD CONSTRAINT "project_stages_responsible_id_employees_id_fk" FOREIGN KEY ("responsible_id") REFERENCES "public"."employees"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_stages" ADD CONSTRAINT "project_stages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_project_type_catalog_id_project_types_id_fk" FOREIGN KEY ("project_type_catalog_id") REFERENCES "public"."project_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_product_catalog_id_products_id_fk" FOREIGN KEY ("product_catalog_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_rape_id_employees_id_fk" FOREIGN KEY ("rape_id") REFERENCES "public"."employees"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_pm_id_employees_id_fk" FOREIGN KEY ("pm_id") REFERENCES "public"."employees"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_activity_type_catalog_id_activity_type_catalogs_id_fk" FOREIGN KEY ("activity_type_catalog_id") REFERENCES "public"."activity_type_catalogs"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_product_catalog_id_products_id_fk" FOREIGN KEY ("product_catalog_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_update_by_users_id_fk" FOREIGN KEY ("update_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_default_customer_id_clients_id_fk" FOREIGN KEY ("default_customer_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_default_workspace_id_workspaces_id_fk" FOREIGN KEY ("default_workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_settings" ADD CONSTRAINT "app_settings_support_excluded_customer_id_clients_id_fk" FOREIGN KEY ("support_excluded_customer_id") REFERENCES "public"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignments" ADD CONSTRAINT "assignments_product_catalog_id_products_id_fk" FOREIGN KEY ("product_catalog_id") REFERENCES "public"."products"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_mappings" ADD CONSTRAINT "calendar_mappings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "frozen_periods" ADD CONSTRAINT "frozen_periods_employee_id_employees_id_fk" FOREIGN KEY ("employee_id") REFERENCES "public"."employees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "frozen_periods" ADD CONSTRAINT "frozen_periods_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_message_reads" ADD CONSTRAINT "project_message_reads_message_id_project_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."project_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_message_reads" ADD CONSTRAINT "project_message_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_messages" ADD CONSTRAINT "project_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_messages" ADD CONSTRAINT "project_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "app_licenses_client_idx" ON "app_licenses" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "app_licenses_product_idx" ON "app_licenses" USING btree ("product_catalog_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_product_catalogs_unique" ON "client_product_catalogs" USING btree ("client_id","product_catalog_id");--> statement-breakpoint
CREATE INDEX "client_product_catalogs_product_idx" ON "client_product_catalogs" USING btree ("product_catalog_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_code_unique" ON "clients" USING btree ("client_code") WHERE "clients"."client_code" <> '0';--> statement-breakpoint
CREATE INDEX "clients_group_idx" ON "clients" USING btree ("client_group_id");--> statement-breakpoint
CREATE INDEX "clients_name_idx" ON "clients" USING btree ("name");--> statement-breakpoint
CREATE INDEX "quotations_state_idx" ON "quotations" USING btree ("state");--> statement-breakpoint
CREATE INDEX "quotations_product_idx" ON "quotations" USING btree ("product_catalog_id");--> statement-breakpoint
CREATE INDEX "quotations_prospect_idx" ON "quotations" USING btree ("prospect_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bosses_workspaces_unique" ON "bosses_workspaces" USING btree ("workspace_id","employee_id");--> statement-breakpoint
CREATE UNIQUE INDEX "employees_user_unique" ON "employees" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "employees_code_unique" ON "employees" USING btree ("employee_code") WHERE "employees"."employee_code" <> '0';--> statement-breakpoint
CREATE INDEX "employees_workspace_idx" ON "employees" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "employees_active_idx" ON "employees" USING btree ("is_active","assignable");--> statement-breakpoint
CREATE INDEX "login_attempts_email_idx" ON "login_attempts" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "audit_logs_record_idx" ON "audit_logs" USING btree ("auditable_type","auditable_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "estimated_work_hours_unique" ON "estimated_work_hours" USING btree ("project_id","employee_position_id");--> statement-breakpoint
CREATE INDEX "invoices_project_idx" ON "invoices" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "project_stages_project_idx" ON "project_stages" USING btree ("project_id","created_at");--> statement-breakpoint
CREATE INDEX "projects_client_idx" ON "projects" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "projects_state_idx" ON "projects" USING btree ("state");--> statement-breakpoint
CREATE INDEX "projects_type_idx" ON "projects" USING btree ("project_type_catalog_id");--> statement-breakpoint
CREATE INDEX "projects_product_idx" ON "projects" USING btree ("product_catalog_id");--> statement-breakpoint
CREATE INDEX "projects_rape_idx" ON "projects" USING btree ("rape_id");--> statement-breakpoint
CREATE INDEX "projects_pm_idx" ON "projects" USING btree ("pm_id");--> statement-breakpoint
CREATE INDEX "activities_employee_begins_idx" ON "activities" USING btree ("employee_id","begins_at");--> statement-breakpoint
CREATE INDEX "activities_begins_idx" ON "activities" USING btree ("begins_at");--> statement-breakpoint
CREATE INDEX "activities_project_idx" ON "activities" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "activities_owner_idx" ON "activities" USING btree ("ownerable_type","ownerable_id");--> statement-breakpoint
CREATE INDEX "activities_favorite_idx" ON "activities" USING btree ("employee_id") WHERE "activities"."is_favorite";--> statement-breakpoint
CREATE UNIQUE INDEX "activities_import_key_unique" ON "activities" USING btree ("employee_id","import_key");--> statement-breakpoint
CREATE INDEX "assignments_employee_idx" ON "assignments" USING btree ("employee_id","start_on");--> statement-breakpoint
CREATE INDEX "assignments_client_idx" ON "assignments" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_mappings_unique" ON "calendar_mappings" USING btree ("user_id","series_key");--> statement-breakpoint
CREATE UNIQUE INDEX "frozen_periods_unique" ON "frozen_periods" USING btree ("employee_id","kind","starts_on");--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_unique" ON "job_runs" USING btree ("job","period_key");--> statement-breakpoint
CREATE INDEX "notifications_created_idx" ON "notifications" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "project_message_reads_pk" ON "project_message_reads" USING btree ("message_id","user_id");--> statement-breakpoint
CREATE INDEX "project_messages_project_idx" ON "project_messages" USING btree ("project_id","id");