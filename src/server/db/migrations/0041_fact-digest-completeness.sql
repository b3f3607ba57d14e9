-- Decision 299: how complete a candidate's source is (score.ts `completenessOf`: 0 a clinical note among their facts'
-- sources, 1 a health record, 2 anything else) kept in their digest, so a match run's slice reads it with the packed
-- facts instead of probing the facts' (candidate, source) index twice per person (two hashed sub-plans that scanned
-- the organization's facts whole on every slice: a third of the slice's read).
ALTER TABLE "candidate_fact_digest" ADD COLUMN "completeness" smallint DEFAULT 2 NOT NULL;--> statement-breakpoint
DROP FUNCTION candidate_fact_digest_packed(uuid[]);--> statement-breakpoint
-- As in 0032, with the completeness of the candidate's sources beside the packed facts.
CREATE FUNCTION candidate_fact_digest_packed(candidate_ids uuid[])
RETURNS TABLE (candidate_id uuid, organization_id uuid, facts bytea, completeness smallint)
LANGUAGE sql STABLE AS $$
  SELECT f.candidate_id, f.organization_id,
    string_agg(int4send(s.id) || float8send(coalesce(f.value, 0))
      || int4send(CASE WHEN isfinite(f.observed_on) THEN f.observed_on - date '1970-01-01' ELSE -2147483648 END)
      || CASE WHEN f.value IS NULL THEN '\x00'::bytea ELSE '\x01'::bytea END, ''::bytea
      ORDER BY f.kind, f.name, f.observed_on DESC, f.id),
    min(CASE f.source WHEN 'note' THEN 0 WHEN 'fhir' THEN 1 ELSE 2 END)::smallint
  FROM candidate_fact f
  JOIN candidate_fact_signature s ON s.organization_id = f.organization_id
    AND md5(s.signature) = md5(candidate_fact_signature_text(f.kind, f.status, f.concept_id, f.name, f.unit, f.value_text))
    AND s.signature = candidate_fact_signature_text(f.kind, f.status, f.concept_id, f.name, f.unit, f.value_text)
  WHERE f.candidate_id = ANY (candidate_ids)
  GROUP BY f.candidate_id, f.organization_id
$$;--> statement-breakpoint
-- As in 0032, writing the completeness too.
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
  INSERT INTO candidate_fact_digest AS d (candidate_id, organization_id, facts, completeness)
  SELECT t.candidate_id, t.organization_id, t.facts, t.completeness FROM candidate_fact_digest_packed(candidate_ids) t
  ON CONFLICT (candidate_id) DO UPDATE SET organization_id = excluded.organization_id, facts = excluded.facts, completeness = excluded.completeness;
$$;--> statement-breakpoint
-- The stored digests' completeness from their candidates' facts (the default, 2, is right for those without a note or record).
UPDATE candidate_fact_digest d SET completeness = s.completeness
FROM (
  SELECT f.candidate_id, min(CASE f.source WHEN 'note' THEN 0 WHEN 'fhir' THEN 1 ELSE 2 END)::smallint AS completeness
  FROM candidate_fact f WHERE f.source IN ('note', 'fhir') GROUP BY f.candidate_id
) s
WHERE d.candidate_id = s.candidate_id;
