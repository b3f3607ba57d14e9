-- Row-level security for prescreen forms, results and bookings (see 0001_tenant-rls.sql).
ALTER TABLE "prescreen_form" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "prescreen_form" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "prescreen_form_version" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "prescreen_form_version" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "prescreen_result" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "prescreen_result" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "booking" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "booking" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
