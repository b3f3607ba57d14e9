CREATE TABLE "booking" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"prescreen_result_id" uuid,
	"site_name" text NOT NULL,
	"site_time_zone" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer DEFAULT 60 NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"notes" text,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prescreen_form" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"published_at" timestamp with time zone,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prescreen_form_version" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"form_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"blocks" jsonb NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prescreen_result" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"form_id" uuid NOT NULL,
	"form_version_id" uuid NOT NULL,
	"source_type" text NOT NULL,
	"source_id" text,
	"answers" jsonb NOT NULL,
	"evaluations" jsonb NOT NULL,
	"ai_recommendation" text NOT NULL,
	"ai_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"review_status" text DEFAULT 'pending' NOT NULL,
	"decision" jsonb,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_prescreen_result_id_prescreen_result_id_fk" FOREIGN KEY ("prescreen_result_id") REFERENCES "public"."prescreen_result"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_form" ADD CONSTRAINT "prescreen_form_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_form" ADD CONSTRAINT "prescreen_form_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_form_version" ADD CONSTRAINT "prescreen_form_version_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_form_version" ADD CONSTRAINT "prescreen_form_version_form_id_prescreen_form_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."prescreen_form"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_result" ADD CONSTRAINT "prescreen_result_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_result" ADD CONSTRAINT "prescreen_result_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_result" ADD CONSTRAINT "prescreen_result_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_result" ADD CONSTRAINT "prescreen_result_form_id_prescreen_form_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."prescreen_form"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_result" ADD CONSTRAINT "prescreen_result_form_version_id_prescreen_form_version_id_fk" FOREIGN KEY ("form_version_id") REFERENCES "public"."prescreen_form_version"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_slot_uidx" ON "booking" USING btree ("organization_id","trial_id","site_name","starts_at") WHERE "booking"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "booking_candidate_idx" ON "booking" USING btree ("candidate_id");--> statement-breakpoint
CREATE INDEX "prescreen_form_organization_id_idx" ON "prescreen_form" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "prescreen_form_trial_id_idx" ON "prescreen_form" USING btree ("trial_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prescreen_form_version_form_version_uidx" ON "prescreen_form_version" USING btree ("form_id","version");--> statement-breakpoint
CREATE INDEX "prescreen_form_version_organization_id_idx" ON "prescreen_form_version" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "prescreen_result_organization_created_idx" ON "prescreen_result" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "prescreen_result_candidate_idx" ON "prescreen_result" USING btree ("candidate_id","created_at");