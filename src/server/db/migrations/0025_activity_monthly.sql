CREATE TABLE "activity_monthly" (
	"organization_id" uuid NOT NULL,
	"month" date NOT NULL,
	"trial_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	"value_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_total" (
	"organization_id" uuid NOT NULL,
	"trial_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	"value_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_monthly" ADD CONSTRAINT "activity_monthly_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_total" ADD CONSTRAINT "activity_total_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_monthly_key_uidx" ON "activity_monthly" USING btree ("organization_id","month","trial_id","kind","source","label");--> statement-breakpoint
CREATE INDEX "activity_monthly_organization_kind_month_idx" ON "activity_monthly" USING btree ("organization_id","kind","month");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_total_key_uidx" ON "activity_total" USING btree ("organization_id","trial_id","kind","source","label");--> statement-breakpoint
ALTER TABLE "activity_monthly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "activity_monthly" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "activity_total" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "activity_total" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
-- The dashboard's raw reads (median time to result, ratings by channel and agent) become index-only scans (decision 041).
DROP INDEX "activity_event_organization_kind_time_idx";--> statement-breakpoint
CREATE INDEX "activity_event_organization_kind_time_idx" ON "activity_event" USING btree ("organization_id","kind","occurred_at") INCLUDE ("value","source","agent_id");
--> statement-breakpoint
-- Backfill (decision 041): the months of the daily rollup, and its all-time totals.
INSERT INTO "activity_monthly" ("organization_id", "month", "trial_id", "kind", "source", "label", "count", "value_sum", "value_count")
SELECT "organization_id", date_trunc('month', "day"::timestamp)::date, "trial_id", "kind", "source", "label", sum("count"), sum("value_sum"), sum("value_count")
FROM "activity_daily"
GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO "activity_total" ("organization_id", "trial_id", "kind", "source", "label", "count", "value_sum", "value_count")
SELECT "organization_id", "trial_id", "kind", "source", "label", sum("count"), sum("value_sum"), sum("value_count")
FROM "activity_daily"
GROUP BY 1, 2, 3, 4, 5;
