CREATE TABLE "sequence" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"trial_id" uuid,
	"name" text NOT NULL,
	"description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"triggers" text[] DEFAULT '{}'::text[] NOT NULL,
	"exit_on_reply" boolean DEFAULT true NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequence_enrollment" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"sequence_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"candidate_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"exit_reason" text,
	"source" text DEFAULT 'manual' NOT NULL,
	"step_index" integer,
	"steps_taken" integer DEFAULT 0 NOT NULL,
	"next_run_at" timestamp with time zone,
	"job_id" text,
	"last_call_id" uuid,
	"step_started_at" timestamp with time zone,
	"enrolled_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequence_step_run" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"enrollment_id" uuid NOT NULL,
	"sequence_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"step_index" integer,
	"step_key" text,
	"step_type" text,
	"kind" text NOT NULL,
	"summary" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reference_id" uuid,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequence_version" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"sequence_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"steps" jsonb NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sequence" ADD CONSTRAINT "sequence_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence" ADD CONSTRAINT "sequence_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_enrollment" ADD CONSTRAINT "sequence_enrollment_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_enrollment" ADD CONSTRAINT "sequence_enrollment_sequence_id_sequence_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."sequence"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_enrollment" ADD CONSTRAINT "sequence_enrollment_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_step_run" ADD CONSTRAINT "sequence_step_run_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_step_run" ADD CONSTRAINT "sequence_step_run_enrollment_id_sequence_enrollment_id_fk" FOREIGN KEY ("enrollment_id") REFERENCES "public"."sequence_enrollment"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_version" ADD CONSTRAINT "sequence_version_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequence_version" ADD CONSTRAINT "sequence_version_sequence_id_sequence_id_fk" FOREIGN KEY ("sequence_id") REFERENCES "public"."sequence"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sequence_organization_idx" ON "sequence" USING btree ("organization_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "sequence_enrollment_live_uidx" ON "sequence_enrollment" USING btree ("sequence_id","candidate_id") WHERE "sequence_enrollment"."status" in ('active', 'paused');--> statement-breakpoint
CREATE INDEX "sequence_enrollment_due_idx" ON "sequence_enrollment" USING btree ("status","next_run_at");--> statement-breakpoint
CREATE INDEX "sequence_enrollment_sequence_idx" ON "sequence_enrollment" USING btree ("sequence_id","status");--> statement-breakpoint
CREATE INDEX "sequence_enrollment_candidate_idx" ON "sequence_enrollment" USING btree ("candidate_id","status");--> statement-breakpoint
CREATE INDEX "sequence_enrollment_organization_idx" ON "sequence_enrollment" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sequence_step_run_idempotency_uidx" ON "sequence_step_run" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "sequence_step_run_enrollment_idx" ON "sequence_step_run" USING btree ("enrollment_id","created_at");--> statement-breakpoint
CREATE INDEX "sequence_step_run_statistics_idx" ON "sequence_step_run" USING btree ("sequence_id","version","step_index","kind");--> statement-breakpoint
CREATE INDEX "sequence_step_run_organization_idx" ON "sequence_step_run" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sequence_version_uidx" ON "sequence_version" USING btree ("sequence_id","version");--> statement-breakpoint
ALTER TABLE "sequence" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sequence" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "sequence_version" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sequence_version" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "sequence_enrollment" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sequence_enrollment" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "sequence_step_run" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sequence_step_run" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
