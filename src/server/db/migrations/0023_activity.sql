CREATE TABLE "activity_daily" (
	"organization_id" uuid NOT NULL,
	"day" date NOT NULL,
	"trial_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000'::uuid NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	"value_sum" double precision DEFAULT 0 NOT NULL,
	"value_count" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_event" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"trial_id" uuid,
	"candidate_id" uuid,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"value" double precision,
	"agent_id" uuid,
	"reference_id" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_daily" ADD CONSTRAINT "activity_daily_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_event" ADD CONSTRAINT "activity_event_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_daily_key_uidx" ON "activity_daily" USING btree ("organization_id","day","trial_id","kind","source","label");--> statement-breakpoint
CREATE INDEX "activity_daily_organization_kind_day_idx" ON "activity_daily" USING btree ("organization_id","kind","day");--> statement-breakpoint
CREATE INDEX "activity_event_organization_kind_time_idx" ON "activity_event" USING btree ("organization_id","kind","occurred_at");--> statement-breakpoint
CREATE INDEX "activity_event_organization_time_idx" ON "activity_event" USING btree ("organization_id","occurred_at");--> statement-breakpoint
ALTER TABLE "activity_event" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "activity_event" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
ALTER TABLE "activity_daily" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "activity_daily" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));
--> statement-breakpoint
-- Backfill (decision 031): the funnel steps already recorded in the feature tables, once, at their own times.
INSERT INTO "activity_event" ("organization_id", "trial_id", "candidate_id", "kind", "source", "label", "occurred_at")
SELECT c."organization_id",
  (SELECT ct."trial_id" FROM "candidate_trial" ct WHERE ct."candidate_id" = c."id" ORDER BY ct."linked_at" LIMIT 1),
  c."id", 'candidate_created',
  CASE WHEN c."source" IN ('import', 'ehr') THEN 'import' WHEN c."source" = 'web_chat' THEN 'chat' WHEN c."source" = 'inbound_call' THEN 'call' ELSE 'manual' END,
  '', c."created_at"
FROM "candidate" c;
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "trial_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT e."organization_id",
  (SELECT ct."trial_id" FROM "candidate_trial" ct WHERE ct."candidate_id" = e."candidate_id" ORDER BY ct."linked_at" LIMIT 1),
  e."candidate_id", 'status_changed', 'manual', e."details"->>'to', e."id"::text, e."occurred_at"
FROM "contact_event" e WHERE e."kind" = 'status_change' AND e."details"->>'to' IS NOT NULL;
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT m."organization_id", m."candidate_id", 'sms_sent', 'sms', m."purpose", m."id"::text, m."created_at"
FROM "sms_message" m WHERE m."direction" = 'outbound' AND m."status" IN ('queued', 'sent', 'delivered', 'undelivered');
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT m."organization_id", m."candidate_id", 'sms_delivered', 'sms', m."purpose", m."id"::text, m."updated_at"
FROM "sms_message" m WHERE m."direction" = 'outbound' AND m."status" = 'delivered';
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT m."organization_id", m."candidate_id", 'sms_replied', 'sms', 'reply', m."id"::text, m."created_at"
FROM "sms_message" m WHERE m."direction" = 'inbound';
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "agent_id", "reference_id", "occurred_at")
SELECT c."organization_id", c."candidate_id", 'call_placed', 'call', c."type", c."voice_agent_id", c."id"::text, c."created_at"
FROM "call" c WHERE c."status" <> 'cancelled' AND c."direction" = 'outbound';
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "agent_id", "reference_id", "occurred_at")
SELECT c."organization_id", c."candidate_id", 'call_answered', 'call', c."type", c."voice_agent_id", c."id"::text, COALESCE(c."started_at", c."created_at")
FROM "call" c WHERE c."outcome" = 'completed';
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "value", "agent_id", "reference_id", "occurred_at")
SELECT c."organization_id", c."candidate_id", 'call_ended', 'call', COALESCE(c."outcome", 'failed'), c."duration_seconds", c."voice_agent_id", c."id"::text, COALESCE(c."ended_at", c."updated_at")
FROM "call" c WHERE c."status" IN ('ended', 'failed');
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "value", "agent_id", "reference_id", "occurred_at")
SELECT c."organization_id", c."candidate_id", 'spend', 'call', 'call_minutes', c."cost_usd"::double precision, c."voice_agent_id", c."id"::text, COALESCE(c."ended_at", c."updated_at")
FROM "call" c WHERE c."cost_usd" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "agent_id", "reference_id", "occurred_at")
SELECT c."organization_id", c."candidate_id", 'chat_started', 'chat', '', c."chat_agent_id", c."id"::text, c."created_at"
FROM "chat_conversation" c WHERE NOT c."is_test";
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "candidate_id", "kind", "source", "label", "agent_id", "reference_id", "occurred_at")
SELECT c."organization_id", c."candidate_id", 'chat_completed', 'chat', '', c."chat_agent_id", c."id"::text, c."completed_at"
FROM "chat_conversation" c WHERE NOT c."is_test" AND c."completed_at" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "trial_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT r."organization_id", r."trial_id", r."candidate_id", 'prescreen_result', r."source_type", r."ai_recommendation", r."id"::text, r."created_at"
FROM "prescreen_result" r;
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "trial_id", "candidate_id", "kind", "source", "label", "value", "reference_id", "occurred_at")
SELECT r."organization_id", r."trial_id", r."candidate_id", 'review_decision', r."source_type",
  CASE WHEN (r."review_status" = 'approved') = (r."ai_recommendation" IN ('PASS', 'POTENTIAL')) THEN 'agree' ELSE 'override' END,
  CASE WHEN (r."review_status" = 'approved') = (r."ai_recommendation" IN ('PASS', 'POTENTIAL')) THEN 0 ELSE 1 END,
  r."id"::text, r."updated_at"
FROM "prescreen_result" r WHERE r."review_status" <> 'pending';
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "trial_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT b."organization_id", b."trial_id", b."candidate_id", 'visit_booked', 'manual', COALESCE(b."site_id", ''), b."id"::text, b."created_at"
FROM "booking" b;
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "trial_id", "candidate_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT b."organization_id", b."trial_id", b."candidate_id",
  CASE b."status" WHEN 'completed' THEN 'visit_attended' WHEN 'no_show' THEN 'visit_no_show' ELSE 'visit_cancelled' END,
  'manual', COALESCE(b."site_id", ''), b."id"::text, b."starts_at"
FROM "booking" b WHERE b."status" <> 'scheduled';
--> statement-breakpoint
INSERT INTO "activity_event" ("organization_id", "trial_id", "kind", "source", "label", "reference_id", "occurred_at")
SELECT t."organization_id", t."id", 'trial_status_changed', 'manual', h->>'to', t."id"::text, (h->>'at')::timestamptz
FROM "trial" t, jsonb_array_elements(t."status_history") h WHERE h->>'to' IS NOT NULL AND h->>'at' IS NOT NULL;
--> statement-breakpoint
INSERT INTO "activity_daily" ("organization_id", "day", "trial_id", "kind", "source", "label", "count", "value_sum", "value_count")
SELECT "organization_id", ("occurred_at" AT TIME ZONE 'UTC')::date, COALESCE("trial_id", '00000000-0000-0000-0000-000000000000'::uuid), "kind", "source", "label",
  count(*), COALESCE(sum("value"), 0), count("value")
FROM "activity_event"
GROUP BY 1, 2, 3, 4, 5, 6;
