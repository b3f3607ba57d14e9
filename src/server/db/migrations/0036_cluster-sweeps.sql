-- Many processes on one database (decision 122). Tables of no organization (like sign_in_throttle): no row security.
-- A periodic sweep every process runs, done once per period across processes: the process whose update moves
-- next_at on claims that period.
CREATE TABLE "background_sweep" (
	"name" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- A counter per cached kind of row, moved by the rows' own triggers in the changing transaction: a process
-- serves its cached copy only while the counter it read with it is still the database's (decision 123).
CREATE TABLE "cache_version" (
	"name" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
INSERT INTO "cache_version" ("name", "version") VALUES ('organizations', 0);--> statement-breakpoint
CREATE FUNCTION organizations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE cache_version SET version = version + 1 WHERE name = 'organizations';
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER organization_cache_version AFTER INSERT OR UPDATE OR DELETE ON "organization"
	FOR EACH STATEMENT EXECUTE FUNCTION organizations_changed();--> statement-breakpoint
-- The sweep's question, "which runs are unfinished and whose claim has lapsed", reads only unfinished runs.
CREATE INDEX "processing_run_unfinished_idx" ON "processing_run" ("lease_expires_at") WHERE "status" IN ('pending', 'running');
--> statement-breakpoint
-- Every app process renews its row while it lives (decision 122): a worker whose row went stale is provably gone.
CREATE TABLE "app_instance" (
	"id" text PRIMARY KEY NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- Which process took an enrollment's current job ('<instance> <job id>'): the sweep gives a new job to the steps of a
-- sender that is gone, instead of waiting for them to be two minutes overdue.
ALTER TABLE "sequence_enrollment" ADD COLUMN "sender" text;
