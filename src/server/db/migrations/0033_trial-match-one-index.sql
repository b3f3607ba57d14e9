-- Decision 113: trial_match keeps one index, unique, and no primary key on (run, candidate): that key served
-- no read and cost a quarter of each slice's write. A run writes each candidate once (its cursor, decision 042).
DROP INDEX "trial_match_run_rank_idx";--> statement-breakpoint
ALTER TABLE "trial_match" DROP CONSTRAINT "trial_match_run_id_candidate_id_pk";--> statement-breakpoint
CREATE UNIQUE INDEX "trial_match_run_rank_idx" ON "trial_match" USING btree ("run_id","class_rank","score" DESC NULLS LAST,"candidate_id");