CREATE TABLE "candidate_fact" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"concept_id" text,
	"name" text NOT NULL,
	"status" text,
	"value" double precision,
	"unit" text,
	"value_text" text,
	"observed_on" date,
	"source" text NOT NULL,
	"source_ref" text,
	"source_text" text,
	"span_start" integer,
	"span_end" integer,
	"criterion_id" text,
	"code" text,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "candidate_note" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"body" text NOT NULL,
	"author_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trial_match" (
	"run_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"match_class" text NOT NULL,
	"class_rank" smallint NOT NULL,
	"score" real NOT NULL,
	"met_count" integer NOT NULL,
	"unknown_count" integer NOT NULL,
	"not_met_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"unknown_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "trial_match_run_id_candidate_id_pk" PRIMARY KEY("run_id","candidate_id")
);
--> statement-breakpoint
ALTER TABLE "candidate_fact" ADD CONSTRAINT "candidate_fact_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_fact" ADD CONSTRAINT "candidate_fact_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_note" ADD CONSTRAINT "candidate_note_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_note" ADD CONSTRAINT "candidate_note_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_match" ADD CONSTRAINT "trial_match_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trial_match" ADD CONSTRAINT "trial_match_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "candidate_fact_organization_candidate_idx" ON "candidate_fact" USING btree ("organization_id","candidate_id");--> statement-breakpoint
CREATE INDEX "candidate_fact_candidate_source_idx" ON "candidate_fact" USING btree ("candidate_id","source","source_ref");--> statement-breakpoint
CREATE INDEX "candidate_fact_organization_recorded_idx" ON "candidate_fact" USING btree ("organization_id","recorded_at");--> statement-breakpoint
CREATE INDEX "candidate_note_candidate_idx" ON "candidate_note" USING btree ("candidate_id","created_at");--> statement-breakpoint
CREATE INDEX "trial_match_run_rank_idx" ON "trial_match" USING btree ("run_id","class_rank","score" DESC NULLS LAST,"candidate_id");--> statement-breakpoint
CREATE INDEX "candidate_organization_updated_idx" ON "candidate" USING btree ("organization_id","updated_at");--> statement-breakpoint
-- Row-level security as on every tenant table (0019's once-per-statement form).
ALTER TABLE "candidate_note" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "candidate_note" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));--> statement-breakpoint
ALTER TABLE "candidate_fact" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "candidate_fact" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));--> statement-breakpoint
ALTER TABLE "trial_match" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "trial_match" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
