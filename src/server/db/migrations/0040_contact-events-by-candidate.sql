-- Decision 186: the reads of a person's first contact (the sponsor dashboard's days to a booking, a result's hours
-- since first contact) ask for events by candidate; the only secondary index led by organization and kind, so they
-- scanned every contact event of the organization. Events of no candidate (organization-wide) stay out of it.
CREATE INDEX "activity_event_candidate_kind_time_idx" ON "activity_event" ("candidate_id", "kind", "occurred_at") WHERE "candidate_id" IS NOT NULL;
