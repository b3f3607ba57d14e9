CREATE TABLE "criterion_judgement" (
	"organization_id" uuid NOT NULL,
	"trial_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"criterion_id" uuid NOT NULL,
	"criterion_text" text NOT NULL,
	"verdict" text NOT NULL,
	"explanation" text NOT NULL,
	"sentences" jsonb NOT NULL,
	"model" text NOT NULL,
	"judged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "criterion_judgement_trial_id_candidate_id_criterion_id_pk" PRIMARY KEY("trial_id","candidate_id","criterion_id")
);
--> statement-breakpoint
ALTER TABLE "criterion_judgement" ADD CONSTRAINT "criterion_judgement_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "criterion_judgement" ADD CONSTRAINT "criterion_judgement_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "criterion_judgement" ADD CONSTRAINT "criterion_judgement_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "criterion_judgement" ADD CONSTRAINT "criterion_judgement_criterion_id_trial_criterion_id_fk" FOREIGN KEY ("criterion_id") REFERENCES "public"."trial_criterion"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "criterion_judgement_candidate_idx" ON "criterion_judgement" USING btree ("candidate_id");--> statement-breakpoint
ALTER TABLE "criterion_judgement" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "criterion_judgement" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
