-- Row-level security evaluated once per statement, not once per row (issue 14's load figures).
-- The policies called app_org_visible(organization_id) on every row: a text cast of the id and a split of the
-- setting each time (about 2 µs a row in PGlite, most of the candidate list's count). Wrapped in a scalar
-- sub-select, the setting is read once per statement (an InitPlan), and each row is a plain uuid comparison,
-- which an index can use. Same meaning: global reach, or the row's organization is one of app.org_ids.
CREATE OR REPLACE FUNCTION app_org_ids() RETURNS uuid[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(string_to_array(nullif(current_setting('app.org_ids', true), ''), ',')::uuid[], '{}'::uuid[])
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_is_global() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('app.global', true), '') = 'on'
$$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
  visible text;
BEGIN
  FOR t IN
    SELECT p.schemaname, p.tablename, c.data_type
    FROM pg_policies p
    JOIN information_schema.columns c ON c.table_schema = p.schemaname AND c.table_name = p.tablename AND c.column_name = 'organization_id'
    WHERE p.policyname = 'tenant_isolation'
  LOOP
    visible := CASE WHEN t.data_type = 'uuid'
      THEN '(SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[])'
      ELSE '(SELECT app_is_global()) OR organization_id::text = ANY ((SELECT app_org_ids())::text[])'
    END;
    EXECUTE format('DROP POLICY tenant_isolation ON %I.%I', t.schemaname, t.tablename);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I.%I TO cohortly_app USING (%s) WITH CHECK (%s)', t.schemaname, t.tablename, visible, visible);
  END LOOP;
END $$;
