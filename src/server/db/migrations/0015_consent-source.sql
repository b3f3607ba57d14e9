ALTER TABLE "candidate" ADD COLUMN "consent_sms_source" text;--> statement-breakpoint
ALTER TABLE "candidate" ADD COLUMN "consent_sms_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "candidate" ADD COLUMN "consent_calls_source" text;--> statement-breakpoint
ALTER TABLE "candidate" ADD COLUMN "consent_calls_at" timestamp with time zone;