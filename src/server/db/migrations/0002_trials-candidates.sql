CREATE TABLE "trial" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"title" text NOT NULL,
	"public_title" text,
	"nct_id" text,
	"sponsor" text,
	"phase" text,
	"conditions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"summary" text,
	"target_enrollment" integer,
	"status" text DEFAULT 'draft' NOT NULL,
	"status_history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sites" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"minimum_age_years" integer,
	"maximum_age_years" integer,
	"sex" text DEFAULT 'all' NOT NULL,
	"healthy_volunteers" boolean,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_criterion" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"rule" jsonb,
	"rule_source" text,
	"needs_review" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "candidate" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"phone" text,
	"email" text,
	"date_of_birth" date,
	"sex" text DEFAULT 'unknown' NOT NULL,
	"address_line" text,
	"city" text,
	"region" text,
	"postal_code" text,
	"country" text,
	"time_zone" text,
	"preferred_language" text DEFAULT 'en' NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"custom_fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"consent_sms" boolean DEFAULT false NOT NULL,
	"consent_calls" boolean DEFAULT false NOT NULL,
	"do_not_contact" boolean DEFAULT false NOT NULL,
	"do_not_contact_at" timestamp with time zone,
	"do_not_contact_reason" text,
	"status" text DEFAULT 'new' NOT NULL,
	"prescreen_notes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"import_run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "candidate_trial" (
	"candidate_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "candidate_trial_candidate_id_trial_id_pk" PRIMARY KEY("candidate_id","trial_id")
);
--> statement-breakpoint
CREATE TABLE "contact_event" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"details" jsonb,
	"reference_id" text,
	"actor_user_id" text,
	"actor_label" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "processing_run" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"merged" integer DEFAULT 0 NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "processing_run_item" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"row_number" integer NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"input" jsonb,
	"errors" jsonb,
	"candidate_id" uuid,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "trial" ADD CONSTRAINT "trial_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_criterion" ADD CONSTRAINT "trial_criterion_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_criterion" ADD CONSTRAINT "trial_criterion_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate" ADD CONSTRAINT "candidate_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_trial" ADD CONSTRAINT "candidate_trial_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_trial" ADD CONSTRAINT "candidate_trial_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_trial" ADD CONSTRAINT "candidate_trial_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_event" ADD CONSTRAINT "contact_event_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_event" ADD CONSTRAINT "contact_event_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_run" ADD CONSTRAINT "processing_run_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_run_item" ADD CONSTRAINT "processing_run_item_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "processing_run_item" ADD CONSTRAINT "processing_run_item_run_id_processing_run_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."processing_run"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trial_organization_id_idx" ON "trial" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trial_organization_nct_id_uidx" ON "trial" USING btree ("organization_id","nct_id");--> statement-breakpoint
CREATE INDEX "trial_criterion_trial_id_position_idx" ON "trial_criterion" USING btree ("trial_id","position");--> statement-breakpoint
CREATE INDEX "trial_criterion_organization_id_idx" ON "trial_criterion" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "candidate_organization_created_idx" ON "candidate" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "candidate_organization_status_idx" ON "candidate" USING btree ("organization_id","status");--> statement-breakpoint
CREATE INDEX "candidate_organization_last_name_idx" ON "candidate" USING btree ("organization_id",lower("last_name"),lower("first_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "candidate_organization_phone_uidx" ON "candidate" USING btree ("organization_id","phone") WHERE "candidate"."phone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "candidate_organization_email_uidx" ON "candidate" USING btree ("organization_id",lower("email")) WHERE "candidate"."email" is not null;--> statement-breakpoint
CREATE INDEX "candidate_trial_trial_id_idx" ON "candidate_trial" USING btree ("trial_id");--> statement-breakpoint
CREATE INDEX "contact_event_candidate_occurred_idx" ON "contact_event" USING btree ("candidate_id","occurred_at");--> statement-breakpoint
CREATE INDEX "contact_event_organization_id_idx" ON "contact_event" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "processing_run_organization_created_idx" ON "processing_run" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "processing_run_item_run_row_uidx" ON "processing_run_item" USING btree ("run_id","row_number");--> statement-breakpoint
CREATE INDEX "processing_run_item_organization_id_idx" ON "processing_run_item" USING btree ("organization_id");