-- Decision 112: the digest packs each fact into 17 bytes naming its words by id, so a match run decodes numbers
-- instead of splitting words (the decode and its garbage were most of the run's CPU).
CREATE TABLE "candidate_fact_signature" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "candidate_fact_signature_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" uuid NOT NULL,
	"signature" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "candidate_fact_signature" ADD CONSTRAINT "candidate_fact_signature_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "candidate_fact_signature_organization_signature_idx" ON "candidate_fact_signature" USING btree ("organization_id",md5("signature"));--> statement-breakpoint
GRANT USAGE ON SEQUENCE candidate_fact_signature_id_seq TO cohortly_app;--> statement-breakpoint
ALTER TABLE "candidate_fact_signature" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "candidate_fact_signature" TO cohortly_app
  USING ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]))
  WITH CHECK ((SELECT app_is_global()) OR organization_id = ANY ((SELECT app_org_ids())::uuid[]));--> statement-breakpoint
-- A fact's words as one text: the signature's one definition (the run splits it on chr(31) again).
CREATE FUNCTION candidate_fact_signature_text(kind text, status text, concept_id text, name text, unit text, value_text text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT kind || chr(31) || coalesce(status, '') || chr(31) || coalesce(concept_id, '') || chr(31) || name || chr(31)
    || coalesce(unit, '') || chr(31) || coalesce('=' || value_text, '')
$$;--> statement-breakpoint
-- The one definition of a candidate's packed facts (read by the match run's compiled.ts `decodeFacts`): per fact its
-- signature's id (int4), value (float8, 0 when none), day (int4 days since 1970; the least int4 when undated or
-- infinite) and a byte saying whether it has a value, big-endian. Facts in the evidence screen's order
-- (queries.ts `listFacts`: kind, name, newest first), then by id, so the run breaks a tie between two facts of one
-- day as the evidence screen does. The signatures must exist (`candidate_fact_digest_refresh` adds them first).
-- Invoker's rights: row security applies.
CREATE FUNCTION candidate_fact_digest_packed(candidate_ids uuid[])
RETURNS TABLE (candidate_id uuid, organization_id uuid, facts bytea)
LANGUAGE sql STABLE AS $$
  SELECT f.candidate_id, f.organization_id,
    string_agg(int4send(s.id) || float8send(coalesce(f.value, 0))
      || int4send(CASE WHEN isfinite(f.observed_on) THEN f.observed_on - date '1970-01-01' ELSE -2147483648 END)
      || CASE WHEN f.value IS NULL THEN '\x00'::bytea ELSE '\x01'::bytea END, ''::bytea
      ORDER BY f.kind, f.name, f.observed_on DESC, f.id)
  FROM candidate_fact f
  JOIN candidate_fact_signature s ON s.organization_id = f.organization_id
    AND md5(s.signature) = md5(candidate_fact_signature_text(f.kind, f.status, f.concept_id, f.name, f.unit, f.value_text))
    AND s.signature = candidate_fact_signature_text(f.kind, f.status, f.concept_id, f.name, f.unit, f.value_text)
  WHERE f.candidate_id = ANY (candidate_ids)
  GROUP BY f.candidate_id, f.organization_id
$$;--> statement-breakpoint
-- As in 0030 (candidates' rows locked first, a fresh snapshot per statement), with the facts' new signatures added
-- before the digests are packed, in one order (two writers adding the same new words wait for each other, never
-- in a cycle).
CREATE OR REPLACE FUNCTION candidate_fact_digest_refresh(candidate_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  SELECT 1 FROM candidate c WHERE c.id = ANY (candidate_ids) ORDER BY c.id FOR NO KEY UPDATE;
  INSERT INTO candidate_fact_signature (organization_id, signature)
  SELECT DISTINCT f.organization_id, candidate_fact_signature_text(f.kind, f.status, f.concept_id, f.name, f.unit, f.value_text)
  FROM candidate_fact f WHERE f.candidate_id = ANY (candidate_ids)
  ORDER BY 1, 2
  ON CONFLICT (organization_id, md5(signature)) DO NOTHING;
  DELETE FROM candidate_fact_digest d
  WHERE d.candidate_id = ANY (candidate_ids) AND NOT EXISTS (SELECT 1 FROM candidate_fact f WHERE f.candidate_id = d.candidate_id);
  INSERT INTO candidate_fact_digest AS d (candidate_id, organization_id, facts)
  SELECT t.candidate_id, t.organization_id, t.facts FROM candidate_fact_digest_packed(candidate_ids) t
  ON CONFLICT (candidate_id) DO UPDATE SET organization_id = excluded.organization_id, facts = excluded.facts;
$$;--> statement-breakpoint
DROP FUNCTION candidate_fact_digest_text(uuid[]);--> statement-breakpoint
-- The text digests are packed again from the facts.
DELETE FROM candidate_fact_digest;--> statement-breakpoint
ALTER TABLE "candidate_fact_digest" ALTER COLUMN "facts" SET DATA TYPE bytea USING NULL;--> statement-breakpoint
SELECT candidate_fact_digest_refresh(ARRAY(SELECT DISTINCT f.candidate_id FROM candidate_fact f));
