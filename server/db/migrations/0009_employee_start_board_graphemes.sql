ALTER TABLE "project_messages" DROP CONSTRAINT "project_messages_length";--> statement-breakpoint
ALTER TABLE "project_messages" ALTER COLUMN "body" SET DATA TYPE varchar(8000);--> statement-breakpoint
ALTER TABLE "employees" ADD COLUMN "start_on" date;--> statement-breakpoint
ALTER TABLE "project_messages" ADD CONSTRAINT "project_messages_length" CHECK (char_length("project_messages"."body") between 1 and 8000);