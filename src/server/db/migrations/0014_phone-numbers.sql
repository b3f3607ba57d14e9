CREATE TABLE "phone_number" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"number" text NOT NULL,
	"provider" text NOT NULL,
	"purpose" text DEFAULT 'voice' NOT NULL,
	"label" text,
	"provider_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "phone_number" ADD CONSTRAINT "phone_number_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "phone_number_number_uidx" ON "phone_number" USING btree ("number");--> statement-breakpoint
CREATE INDEX "phone_number_organization_id_idx" ON "phone_number" USING btree ("organization_id");--> statement-breakpoint
-- Row-level security (see 0001_tenant-rls.sql): a tenant reads its own numbers. Writes come from internal
-- global admins (app.global = 'on'); inbound calls look numbers up on the system path (owner, no policy).
ALTER TABLE "phone_number" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "phone_number" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
-- Backfill (decision 016): every number voice agents already call from joins the registry, owned by the
-- organization whose agent claimed it first (the oldest agent with that number). Not verified with a
-- provider: stored as 'simulator' with a label saying so, for an admin to review.
INSERT INTO "phone_number" ("organization_id", "number", "provider", "purpose", "label")
SELECT DISTINCT ON ("from_number") "organization_id", "from_number", 'simulator', 'voice', 'Imported from voice agents (not verified)'
FROM "voice_agent"
WHERE "from_number" IS NOT NULL
ORDER BY "from_number", "created_at", "id"
ON CONFLICT ("number") DO NOTHING;
--> statement-breakpoint
-- Every other organization's claim on a taken number is cleared: its agents keep working outbound without a
-- number of their own and no longer receive the owner's inbound calls. Each cleared agent is audited.
INSERT INTO "audit_log" ("organization_id", "actor_user_id", "action", "entity_type", "entity_id", "changes")
SELECT "organization_id", NULL, 'voice_agent.update', 'voice_agent', "id"::text, '{"fields":["fromNumber"],"reason":"phone_number_owned_by_another_organization"}'::jsonb
FROM "voice_agent" va
WHERE va."from_number" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "phone_number" p WHERE p."number" = va."from_number" AND p."organization_id" = va."organization_id");
--> statement-breakpoint
UPDATE "voice_agent" va SET "from_number" = NULL
WHERE va."from_number" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "phone_number" p WHERE p."number" = va."from_number" AND p."organization_id" = va."organization_id");
