CREATE TABLE "candidate_fact_digest" (
	"candidate_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"facts" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trial_match" DROP CONSTRAINT "trial_match_trial_id_trial_id_fk";
--> statement-breakpoint
ALTER TABLE "trial_match" DROP CONSTRAINT "trial_match_candidate_id_candidate_id_fk";
--> statement-breakpoint
ALTER TABLE "candidate_fact_digest" ADD CONSTRAINT "candidate_fact_digest_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_fact_digest" ADD CONSTRAINT "candidate_fact_digest_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_fact_digest" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "candidate_fact_digest" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));--> statement-breakpoint
-- Decision 087. The one definition of a candidate's facts as text (decision 084's format, read by the match run's
-- compiled.ts `decodeFacts`): per fact its kind, status, concept id, name, unit and value text (prefixed, so null
-- and '' stay apart), value and day (days since 1970; an infinite date reads as undated), fields separated by
-- chr(31), facts by chr(30). Facts in the evidence screen's order (queries.ts `listFacts`: kind, name, newest
-- first), then by id, so the run breaks a tie between two facts of one day as the evidence screen does, and the
-- text is the same however the facts were written. The triggers below keep `candidate_fact_digest` equal to it;
-- the run calls it directly for a candidate whose digest is missing. Invoker's rights: row security applies.
CREATE FUNCTION candidate_fact_digest_text(candidate_ids uuid[])
RETURNS TABLE (candidate_id uuid, organization_id uuid, facts text)
LANGUAGE sql STABLE AS $$
  SELECT f.candidate_id, f.organization_id,
    string_agg(concat(f.kind, chr(31), f.status, chr(31), f.concept_id, chr(31), f.name, chr(31), f.unit, chr(31), '=' || f.value_text, chr(31),
      f.value, chr(31), CASE WHEN isfinite(f.observed_on) THEN f.observed_on - date '1970-01-01' END), chr(30)
      ORDER BY f.kind, f.name, f.observed_on DESC, f.id)
  FROM candidate_fact f
  WHERE f.candidate_id = ANY (candidate_ids)
  GROUP BY f.candidate_id, f.organization_id
$$;--> statement-breakpoint
-- Recomputes the digests of these candidates from their facts. The candidates' rows are locked first (in id
-- order, NO KEY UPDATE: foreign-key checks still pass) so two transactions writing one person's facts at once
-- take turns, and the second computes its text with a snapshot taken after the first committed (a volatile
-- function's statements each take a fresh one): without it the later commit could store a text missing the
-- other's facts.
CREATE FUNCTION candidate_fact_digest_refresh(candidate_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  SELECT 1 FROM candidate c WHERE c.id = ANY (candidate_ids) ORDER BY c.id FOR NO KEY UPDATE;
  DELETE FROM candidate_fact_digest d
  WHERE d.candidate_id = ANY (candidate_ids) AND NOT EXISTS (SELECT 1 FROM candidate_fact f WHERE f.candidate_id = d.candidate_id);
  INSERT INTO candidate_fact_digest AS d (candidate_id, organization_id, facts)
  SELECT t.candidate_id, t.organization_id, t.facts FROM candidate_fact_digest_text(candidate_ids) t
  ON CONFLICT (candidate_id) DO UPDATE SET organization_id = excluded.organization_id, facts = excluded.facts;
$$;--> statement-breakpoint
-- Statement triggers: one recomputation per statement for every candidate it touched (an import's thousands of
-- facts cost one set-based pass), in the writing transaction, whatever wrote the facts (services, raw SQL, the
-- demo seed, a cascade from a candidate's or organization's deletion).
CREATE FUNCTION candidate_fact_digest_maintain() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM candidate_fact_digest_refresh(ARRAY(SELECT DISTINCT n.candidate_id FROM new_facts n));
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM candidate_fact_digest_refresh(ARRAY(SELECT n.candidate_id FROM new_facts n UNION SELECT o.candidate_id FROM old_facts o));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM candidate_fact_digest_refresh(ARRAY(SELECT DISTINCT o.candidate_id FROM old_facts o));
  ELSE
    DELETE FROM candidate_fact_digest;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER candidate_fact_digest_insert AFTER INSERT ON candidate_fact
  REFERENCING NEW TABLE AS new_facts FOR EACH STATEMENT EXECUTE FUNCTION candidate_fact_digest_maintain();--> statement-breakpoint
CREATE TRIGGER candidate_fact_digest_update AFTER UPDATE ON candidate_fact
  REFERENCING OLD TABLE AS old_facts NEW TABLE AS new_facts FOR EACH STATEMENT EXECUTE FUNCTION candidate_fact_digest_maintain();--> statement-breakpoint
CREATE TRIGGER candidate_fact_digest_delete AFTER DELETE ON candidate_fact
  REFERENCING OLD TABLE AS old_facts FOR EACH STATEMENT EXECUTE FUNCTION candidate_fact_digest_maintain();--> statement-breakpoint
CREATE TRIGGER candidate_fact_digest_truncate AFTER TRUNCATE ON candidate_fact
  FOR EACH STATEMENT EXECUTE FUNCTION candidate_fact_digest_maintain();--> statement-breakpoint
-- Backfill: every candidate who has facts.
SELECT candidate_fact_digest_refresh(ARRAY(SELECT DISTINCT f.candidate_id FROM candidate_fact f));
--> statement-breakpoint
-- trial_match keeps no foreign keys (their checks were 40% of a slice's write): a candidate's or a trial's
-- deletion removes their results here instead, once per statement (a cascade from an organization's deletion too).
CREATE FUNCTION trial_match_forget() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM gone) THEN
    RETURN NULL;
  ELSIF TG_TABLE_NAME = 'candidate' THEN
    DELETE FROM trial_match m USING gone g WHERE m.candidate_id = g.id;
  ELSE
    DELETE FROM trial_match m USING gone g WHERE m.trial_id = g.id;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER trial_match_candidate_deleted AFTER DELETE ON candidate
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION trial_match_forget();--> statement-breakpoint
CREATE TRIGGER trial_match_trial_deleted AFTER DELETE ON trial
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION trial_match_forget();
