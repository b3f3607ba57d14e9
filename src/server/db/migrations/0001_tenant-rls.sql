-- Row-level security: the second line of defence behind the request scope (docs/decisions/002-tenancy-and-row-level-security.md).
-- Application queries for tenant data run as the non-superuser role cohortly_app with the request's
-- organization ids in the transaction setting app.org_ids (or app.global = 'on' for a global admin).
-- Superusers and table owners bypass these policies: that is the system path (bootstrap, auth, migrations).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cohortly_app') THEN
    CREATE ROLE cohortly_app NOLOGIN;
  END IF;
EXCEPTION WHEN duplicate_object OR unique_violation THEN
  -- roles are cluster-wide: another database on the same server created it at the same moment.
  NULL;
END
$$;
--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('GRANT cohortly_app TO %I', current_user);
EXCEPTION WHEN OTHERS THEN
  -- a superuser needs no grant, and some hosts refuse it; SET ROLE then tells.
  NULL;
END
$$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO cohortly_app;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO cohortly_app;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO cohortly_app;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_org_visible(org uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('app.global', true), '') = 'on'
      OR org::text = ANY (string_to_array(coalesce(current_setting('app.org_ids', true), ''), ','))
$$;
--> statement-breakpoint
ALTER TABLE "member" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "member" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "invitation" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "invitation" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "audit_log" TO cohortly_app
  USING (app_org_visible(organization_id)) WITH CHECK (app_org_visible(organization_id));
