-- Decision 102: an event's id is time-ordered (UUID version 7: 48 bits of Unix milliseconds, then random bits), so
-- new events' ids sit together at one end of the primary key instead of on random pages of an index as large as the
-- table (at 5M events on PGlite's data directory the insert read two index pages from disk: 42 ms).
CREATE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
--> statement-breakpoint
ALTER TABLE "activity_event" ALTER COLUMN "id" SET DEFAULT time_ordered_uuid();
--> statement-breakpoint
-- Decision 092: the event write as one PL/pgSQL function. PL/pgSQL keeps each statement's plan for the life of the
-- connection, so the 5 kB statement below is parsed, analysed and planned once per connection instead of on every
-- event. PostgreSQL got that from a named prepared statement (decision 078); PGlite ignores statement names and
-- re-planned it on every call (about 1 ms of its 1.8-3.1 ms). Row security still applies: the function runs as its
-- caller (SECURITY INVOKER, the default), and a cached plan is re-planned when the role changes.
--
-- It inserts the events (one array per column, one entry per event) and adds them to every rollup in one statement:
-- activity_daily, activity_kind_daily (decision 082), activity_monthly, activity_total, and the lean rollups of
-- decision 078: enrolment_monthly (status_changed to 'enrolled'), prescreen_result_monthly (prescreen_result) and the
-- time-to-result histograms (prescreen_result with a value). The lean upserts read no rows when no event feeds them.
-- Keys are grouped and sorted, so two transactions touching the same keys lock them in the same order (no deadlock).
-- `LEAN_MONTHLY_ROLLUPS` and `TIME_TO_RESULT_KIND` in src/server/activity.ts name what the reads may take from here.
CREATE FUNCTION record_activity(
  event_organization_ids uuid[], event_trial_ids uuid[], event_candidate_ids uuid[], event_kinds text[],
  event_sources text[], event_labels text[], event_values double precision[], event_agent_ids uuid[],
  event_reference_ids text[], event_times timestamptz[]
) RETURNS void LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  WITH events AS (
    INSERT INTO activity_event (organization_id, trial_id, candidate_id, kind, source, label, value, agent_id, reference_id, occurred_at)
    SELECT * FROM unnest(event_organization_ids, event_trial_ids, event_candidate_ids, event_kinds, event_sources,
      event_labels, event_values, event_agent_ids, event_reference_ids, event_times)
    RETURNING organization_id, coalesce(trial_id, '00000000-0000-0000-0000-000000000000'::uuid) AS trial_id, kind, source,
      label, value, (occurred_at AT TIME ZONE 'UTC')::date AS day
  ),
  enrolments AS (
    INSERT INTO enrolment_monthly AS t (organization_id, month, trial_id, count, value_sum, value_count)
    SELECT organization_id, date_trunc('month', day::timestamp)::date, trial_id, count(*), coalesce(sum(value), 0), count(value)
    FROM events WHERE kind = 'status_changed' AND label = 'enrolled' GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, month, trial_id) DO UPDATE SET
      count = t.count + excluded.count, value_sum = t.value_sum + excluded.value_sum, value_count = t.value_count + excluded.value_count
  ),
  prescreen_results AS (
    INSERT INTO prescreen_result_monthly AS t (organization_id, month, source, label, count, value_sum, value_count)
    SELECT organization_id, date_trunc('month', day::timestamp)::date, source, label, count(*), coalesce(sum(value), 0), count(value)
    FROM events WHERE kind = 'prescreen_result' GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, source, label) DO UPDATE SET
      count = t.count + excluded.count, value_sum = t.value_sum + excluded.value_sum, value_count = t.value_count + excluded.value_count
  ),
  hours AS (
    SELECT organization_id, date_trunc('month', day::timestamp)::date AS month, source, activity_hours_bucket(value) AS bucket, count(*) AS count
    FROM events WHERE kind = 'prescreen_result' AND value IS NOT NULL GROUP BY 1, 2, 3, 4
  ),
  hours_monthly AS (
    INSERT INTO time_to_result_monthly AS t (organization_id, month, source, bucket, count)
    SELECT organization_id, month, source, bucket, count FROM hours ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, month, source, bucket) DO UPDATE SET count = t.count + excluded.count
  ),
  hours_total AS (
    INSERT INTO time_to_result_total AS t (organization_id, source, bucket, count)
    SELECT organization_id, source, bucket, sum(count) FROM hours GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (organization_id, source, bucket) DO UPDATE SET count = t.count + excluded.count
  ),
  daily AS (
    INSERT INTO activity_daily AS t (organization_id, day, trial_id, kind, source, label, count, value_sum, value_count)
    SELECT organization_id, day, trial_id, kind, source, label, count(*), coalesce(sum(value), 0), count(value)
    FROM events GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (organization_id, kind, day, trial_id, source, label) DO UPDATE SET
      count = t.count + excluded.count, value_sum = t.value_sum + excluded.value_sum, value_count = t.value_count + excluded.value_count
  ),
  kind_daily AS (
    INSERT INTO activity_kind_daily AS t (organization_id, kind, day, label, count, value_sum, value_count)
    SELECT organization_id, kind, day, label, count(*), coalesce(sum(value), 0), count(value)
    FROM events GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (organization_id, kind, day, label) DO UPDATE SET
      count = t.count + excluded.count, value_sum = t.value_sum + excluded.value_sum, value_count = t.value_count + excluded.value_count
  ),
  monthly AS (
    INSERT INTO activity_monthly AS t (organization_id, month, trial_id, kind, source, label, count, value_sum, value_count)
    SELECT organization_id, date_trunc('month', day::timestamp)::date, trial_id, kind, source, label, count(*), coalesce(sum(value), 0), count(value)
    FROM events GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (organization_id, kind, month, trial_id, source, label) DO UPDATE SET
      count = t.count + excluded.count, value_sum = t.value_sum + excluded.value_sum, value_count = t.value_count + excluded.value_count
  )
  INSERT INTO activity_total AS t (organization_id, trial_id, kind, source, label, count, value_sum, value_count, first_day, last_day)
  SELECT organization_id, trial_id, kind, source, label, count(*), coalesce(sum(value), 0), count(value), min(day), max(day)
  FROM events GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (organization_id, trial_id, kind, source, label) DO UPDATE SET
    count = t.count + excluded.count, value_sum = t.value_sum + excluded.value_sum, value_count = t.value_count + excluded.value_count,
    first_day = least(t.first_day, excluded.first_day), last_day = greatest(t.last_day, excluded.last_day);
END
$$;
