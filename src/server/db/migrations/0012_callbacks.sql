DROP INDEX "callback_pending_candidate_uidx";--> statement-breakpoint
ALTER TABLE "callback" ADD COLUMN "last_outcome" text;--> statement-breakpoint
ALTER TABLE "callback" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "callback" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "callback" ADD COLUMN "created_by_user_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "callback_open_candidate_uidx" ON "callback" USING btree ("candidate_id") WHERE "callback"."status" in ('pending', 'calling');