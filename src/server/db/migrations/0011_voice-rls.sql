-- Row-level security for voice agents, calls, call events and callbacks (see 0001_tenant-rls.sql).
ALTER TABLE "voice_agent" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "voice_agent" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "call" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "call" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "call_event" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "call_event" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "callback" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "callback" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
