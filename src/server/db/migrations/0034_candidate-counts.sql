CREATE TABLE "candidate_count" (
	"organization_id" uuid NOT NULL,
	"status" text NOT NULL,
	"change" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "candidate_count_organization_status_idx" ON "candidate_count" USING btree ("organization_id","status");--> statement-breakpoint
-- Decision 115: the list's total is read here instead of counting candidates (a count of 10,000 rows under row
-- security on every first page made a 10,000-candidate site's list twice as slow as a 1,000,000-candidate one's).
-- Statement triggers add each statement's net change per organization and status as new rows: writers only insert,
-- so two imports into one organization never wait for each other on a counter. candidate_count_fold() folds them.
ALTER TABLE "candidate_count" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "candidate_count" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));--> statement-breakpoint
-- The app role reads its scope's rows; only the triggers (as the owner) write.
REVOKE INSERT, UPDATE, DELETE ON "candidate_count" FROM cohortly_app;--> statement-breakpoint
CREATE FUNCTION candidate_count_inserted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO candidate_count (organization_id, status, change)
  SELECT organization_id, status, count(*) FROM candidate_count_new GROUP BY organization_id, status;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION candidate_count_deleted() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO candidate_count (organization_id, status, change)
  SELECT organization_id, status, -count(*) FROM candidate_count_old GROUP BY organization_id, status;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Every update statement (a note, a status, a move): only a net change of organization or status writes a row.
CREATE FUNCTION candidate_count_updated() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  INSERT INTO candidate_count (organization_id, status, change)
  SELECT organization_id, status, sum(change) FROM (
    SELECT organization_id, status, -1 AS change FROM candidate_count_old
    UNION ALL
    SELECT organization_id, status, 1 FROM candidate_count_new
  ) moved
  GROUP BY organization_id, status
  HAVING sum(change) <> 0;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION candidate_count_truncated() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  DELETE FROM candidate_count;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER candidate_count_insert AFTER INSERT ON candidate
  REFERENCING NEW TABLE AS candidate_count_new FOR EACH STATEMENT EXECUTE FUNCTION candidate_count_inserted();--> statement-breakpoint
CREATE TRIGGER candidate_count_delete AFTER DELETE ON candidate
  REFERENCING OLD TABLE AS candidate_count_old FOR EACH STATEMENT EXECUTE FUNCTION candidate_count_deleted();--> statement-breakpoint
CREATE TRIGGER candidate_count_update AFTER UPDATE ON candidate
  REFERENCING OLD TABLE AS candidate_count_old NEW TABLE AS candidate_count_new FOR EACH STATEMENT EXECUTE FUNCTION candidate_count_updated();--> statement-breakpoint
CREATE TRIGGER candidate_count_truncate AFTER TRUNCATE ON candidate
  FOR EACH STATEMENT EXECUTE FUNCTION candidate_count_truncated();--> statement-breakpoint
-- One row per organization and status again, in one statement: a reader sees the rows before or after, each the same
-- sum; a writer's change committed meanwhile is a row this statement never saw, and stays.
CREATE FUNCTION candidate_count_fold() RETURNS void
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH folded AS (DELETE FROM candidate_count RETURNING organization_id, status, change)
  INSERT INTO candidate_count (organization_id, status, change)
  SELECT organization_id, status, sum(change) FROM folded GROUP BY organization_id, status HAVING sum(change) <> 0;
$$;--> statement-breakpoint
REVOKE ALL ON FUNCTION candidate_count_fold() FROM PUBLIC;--> statement-breakpoint
-- The candidates there already. A write between this and the triggers' creation cannot happen: a migration runs in
-- one transaction, and the triggers' creation locks the table first.
INSERT INTO candidate_count (organization_id, status, change)
SELECT organization_id, status, count(*) FROM candidate GROUP BY organization_id, status;
