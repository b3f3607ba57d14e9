CREATE TABLE "satisfaction_response" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid,
	"trial_id" uuid,
	"channel" text NOT NULL,
	"agent_id" uuid,
	"reference_id" text NOT NULL,
	"rating" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "satisfaction_response" ADD CONSTRAINT "satisfaction_response_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "satisfaction_response" ADD CONSTRAINT "satisfaction_response_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "satisfaction_response_reference_uidx" ON "satisfaction_response" USING btree ("channel","reference_id");--> statement-breakpoint
CREATE INDEX "satisfaction_response_organization_created_idx" ON "satisfaction_response" USING btree ("organization_id","created_at");--> statement-breakpoint
ALTER TABLE "satisfaction_response" ADD CONSTRAINT "satisfaction_response_rating_check" CHECK ("rating" BETWEEN 1 AND 5);--> statement-breakpoint
ALTER TABLE "satisfaction_response" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "satisfaction_response" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
