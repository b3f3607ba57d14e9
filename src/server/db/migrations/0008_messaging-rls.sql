-- Row-level security for chat agents, conversations, messages and SMS (see 0001_tenant-rls.sql).
ALTER TABLE "chat_agent" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "chat_agent" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "chat_conversation" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "chat_conversation" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "chat_message" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "chat_message" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "sms_message" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "sms_message" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
