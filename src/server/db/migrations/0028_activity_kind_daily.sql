CREATE TABLE "activity_kind_daily" (
	"organization_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	"value_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_kind_daily" ADD CONSTRAINT "activity_kind_daily_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_kind_daily_key_uidx" ON "activity_kind_daily" USING btree ("organization_id","kind","day","label");--> statement-breakpoint
ALTER TABLE "activity_kind_daily" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "activity_kind_daily" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
-- Backfill (decision 082): the days of every event by organization, kind and label (no trial, no source), written in
-- day order as live writes are: a range of recent days is then a few pages, not a page per row.
INSERT INTO "activity_kind_daily" ("organization_id", "kind", "day", "label", "count", "value_sum", "value_count")
SELECT "organization_id", "kind", ("occurred_at" AT TIME ZONE 'UTC')::date, "label", count(*), coalesce(sum("value"), 0), count("value")
FROM "activity_event"
GROUP BY 1, 2, 3, 4
ORDER BY 3;
