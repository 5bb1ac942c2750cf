CREATE TABLE "sso_used_nonces" (
	"nonce_hash" varchar(64) PRIMARY KEY NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_issuer" varchar(500);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_subject" varchar(255);--> statement-breakpoint
CREATE INDEX "sso_used_nonces_used_at_idx" ON "sso_used_nonces" USING btree ("used_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_sso_subject_unique" ON "users" USING btree ("sso_issuer","sso_subject");