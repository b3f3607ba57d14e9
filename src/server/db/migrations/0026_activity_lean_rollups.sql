-- Decision 078: rollups shaped for the dashboard's long-range questions, kept by recordActivity in the event's
-- statement; the daily and monthly rollups keyed kind-first so one index serves their upserts and reads.
-- The bucket of a time to result (hours): 1 hour below a day, 6 hours up to a week, a day up to 30 days, then one
-- open bucket from 720 hours. A bucket is named by its lower bound; recordActivity, the backfill and the reads all
-- call these two functions, so the buckets have one definition.
CREATE FUNCTION activity_hours_bucket(hours double precision) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN greatest(hours, 0) < 24 THEN floor(greatest(hours, 0))
    WHEN hours < 168 THEN 24 + floor((hours - 24) / 6) * 6
    WHEN hours < 720 THEN 168 + floor((hours - 168) / 24) * 24
    ELSE 720 END::integer
$$;
--> statement-breakpoint
-- The end (exclusive) of a bucket, null for the open last one.
CREATE FUNCTION activity_hours_bucket_end(bucket integer) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN bucket < 24 THEN bucket + 1 WHEN bucket < 168 THEN bucket + 6 WHEN bucket < 720 THEN bucket + 24 END::double precision
$$;
--> statement-breakpoint
-- Each all-time key's first and last day: an organization's first and last activity from its total rows.
ALTER TABLE "activity_total" ADD COLUMN "first_day" date;--> statement-breakpoint
ALTER TABLE "activity_total" ADD COLUMN "last_day" date;--> statement-breakpoint
CREATE TABLE "enrolment_monthly" (
	"organization_id" uuid NOT NULL,
	"month" date NOT NULL,
	"trial_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	"value_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prescreen_result_monthly" (
	"organization_id" uuid NOT NULL,
	"month" date NOT NULL,
	"source" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	"value_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_to_result_monthly" (
	"organization_id" uuid NOT NULL,
	"month" date NOT NULL,
	"source" text NOT NULL,
	"bucket" integer NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "time_to_result_total" (
	"organization_id" uuid NOT NULL,
	"source" text NOT NULL,
	"bucket" integer NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "activity_daily_organization_kind_day_idx";--> statement-breakpoint
DROP INDEX "activity_event_organization_time_idx";--> statement-breakpoint
DROP INDEX "activity_monthly_organization_kind_month_idx";--> statement-breakpoint
DROP INDEX "activity_daily_key_uidx";--> statement-breakpoint
DROP INDEX "activity_monthly_key_uidx";--> statement-breakpoint
ALTER TABLE "enrolment_monthly" ADD CONSTRAINT "enrolment_monthly_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescreen_result_monthly" ADD CONSTRAINT "prescreen_result_monthly_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_to_result_monthly" ADD CONSTRAINT "time_to_result_monthly_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "time_to_result_total" ADD CONSTRAINT "time_to_result_total_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "enrolment_monthly_key_uidx" ON "enrolment_monthly" USING btree ("organization_id","month","trial_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prescreen_result_monthly_key_uidx" ON "prescreen_result_monthly" USING btree ("organization_id","month","source","label");--> statement-breakpoint
CREATE UNIQUE INDEX "time_to_result_monthly_key_uidx" ON "time_to_result_monthly" USING btree ("organization_id","month","source","bucket");--> statement-breakpoint
CREATE UNIQUE INDEX "time_to_result_total_key_uidx" ON "time_to_result_total" USING btree ("organization_id","source","bucket");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_daily_key_uidx" ON "activity_daily" USING btree ("organization_id","kind","day","trial_id","source","label");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_monthly_key_uidx" ON "activity_monthly" USING btree ("organization_id","kind","month","trial_id","source","label");--> statement-breakpoint
ALTER TABLE "enrolment_monthly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "enrolment_monthly" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "prescreen_result_monthly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "prescreen_result_monthly" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "time_to_result_monthly" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "time_to_result_monthly" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "time_to_result_total" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "time_to_result_total" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
-- One probe per organization for its first and last day of activity.
CREATE INDEX "activity_total_organization_first_day_idx" ON "activity_total" USING btree ("organization_id","first_day");--> statement-breakpoint
CREATE INDEX "activity_total_organization_last_day_idx" ON "activity_total" USING btree ("organization_id","last_day");
--> statement-breakpoint
-- Backfill (decision 078): the all-time keys' first and last days from the daily rollup, the lean monthly rollups
-- from the monthly one, the histogram from the raw results.
UPDATE "activity_total" t SET "first_day" = d."first_day", "last_day" = d."last_day"
FROM (SELECT "organization_id", "trial_id", "kind", "source", "label", min("day") AS "first_day", max("day") AS "last_day"
  FROM "activity_daily" GROUP BY 1, 2, 3, 4, 5) d
WHERE t."organization_id" = d."organization_id" AND t."trial_id" = d."trial_id" AND t."kind" = d."kind" AND t."source" = d."source" AND t."label" = d."label";
--> statement-breakpoint
INSERT INTO "enrolment_monthly" ("organization_id", "month", "trial_id", "count", "value_sum", "value_count")
SELECT "organization_id", "month", "trial_id", sum("count"), sum("value_sum"), sum("value_count")
FROM "activity_monthly" WHERE "kind" = 'status_changed' AND "label" = 'enrolled'
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "prescreen_result_monthly" ("organization_id", "month", "source", "label", "count", "value_sum", "value_count")
SELECT "organization_id", "month", "source", "label", sum("count"), sum("value_sum"), sum("value_count")
FROM "activity_monthly" WHERE "kind" = 'prescreen_result'
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "time_to_result_monthly" ("organization_id", "month", "source", "bucket", "count")
SELECT "organization_id", date_trunc('month', "occurred_at" AT TIME ZONE 'UTC')::date, "source", activity_hours_bucket("value"), count(*)
FROM "activity_event" WHERE "kind" = 'prescreen_result' AND "value" IS NOT NULL
GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "time_to_result_total" ("organization_id", "source", "bucket", "count")
SELECT "organization_id", "source", "bucket", sum("count")
FROM "time_to_result_monthly"
GROUP BY 1, 2, 3;
