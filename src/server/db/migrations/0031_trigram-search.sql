-- Decision 109: substring search on names, emails and phone digits read from pg_trgm GIN indexes (issue 17).
-- PGlite ships pg_trgm as a contrib extension (client.ts loads it); PostgreSQL 13+ lets a database owner create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX "candidate_name_trgm_idx" ON "candidate" USING gin (lower("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "candidate_email_trgm_idx" ON "candidate" USING gin (lower("email") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "candidate_phone_trgm_idx" ON "candidate" USING gin (replace("phone", '+', '') gin_trgm_ops);--> statement-breakpoint
-- The phone's index is on its digits (E.164 without the "+"), not the column: pg_trgm 1.6's operator class also
-- serves "=", and on the plain column the planner took it for the import's duplicate lookup (`phone = any(...)`)
-- instead of the unique btree: a 50,000-row import went from 7 s to 72 s. The pattern is digits only, so the "+"
-- removed changes no match.
-- Under row-level security PostgreSQL uses a query's condition as an index condition only if its operator is
-- LEAKPROOF; LIKE is not, so the app role's own `lower(...) like '%term%'` scans the organization's rows whatever the
-- indexes. This function runs as the table's owner (SECURITY DEFINER, row security not applied to it), so its LIKE
-- reads the trigram indexes, and it applies the policy's own test itself: the same settings (app.global,
-- app.org_ids) through the same functions, so it never returns an id the policy would hide; no scope, no ids.
-- The caller keeps the policy and its filters too: it reads a limited number of ids (`select f(...) limit n` in a
-- select list runs the function lazily, row by row), then `candidate.id = any('{...}')`, a uuid equality (leakproof)
-- the primary key serves. A null pattern matches nothing (LIKE null is null). No LIMIT in the body: planned without
-- the patterns' values, a LIMIT made a scan that stops early look cheaper than the indexes.
CREATE FUNCTION candidate_ids_matching(organization_ids uuid[], name_pattern text, email_pattern text, phone_pattern text)
RETURNS SETOF uuid LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.id FROM candidate c
  WHERE c.organization_id = ANY (organization_ids)
    AND ((SELECT app_is_global()) OR c.organization_id = ANY ((SELECT app_org_ids())::uuid[]))
    AND (lower(c.first_name || ' ' || c.last_name) LIKE name_pattern
      OR lower(c.email) LIKE email_pattern
      OR replace(c.phone, '+', '') LIKE phone_pattern)
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION candidate_ids_matching(uuid[], text, text, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION candidate_ids_matching(uuid[], text, text, text) TO cohortly_app;
