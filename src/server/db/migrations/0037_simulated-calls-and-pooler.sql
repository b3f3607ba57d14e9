-- The voice simulator's own store of the calls it places (decision 124): like a provider's, outside our tenancy,
-- so any process can answer GET /call/{id} for a call another process placed. Keyed by organization first so a
-- Citus cluster can distribute it by organization_id beside `call`; the provider's id alone is looked up through
-- its own index, as a provider's API is asked. No tenant path reads it: cohortly_app gets no rights on it.
CREATE TABLE "simulated_voice_call" (
  "organization_id" uuid NOT NULL,
  "provider_call_id" text NOT NULL,
  "call_id" uuid NOT NULL,
  "state" jsonb NOT NULL,
  "conversation_finished" boolean DEFAULT false NOT NULL,
  "cancelled" boolean DEFAULT false NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "simulated_voice_call_pkey" PRIMARY KEY ("organization_id", "provider_call_id")
);
--> statement-breakpoint
CREATE INDEX "simulated_voice_call_provider_call_idx" ON "simulated_voice_call" ("provider_call_id");
--> statement-breakpoint
CREATE INDEX "simulated_voice_call_created_idx" ON "simulated_voice_call" ("created_at");
--> statement-breakpoint
REVOKE ALL ON "simulated_voice_call" FROM cohortly_app;
--> statement-breakpoint
ALTER TABLE "simulated_voice_call" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
-- The planner's cost of a random page read (decision 125) as the database's default for every new connection,
-- instead of a startup parameter a transaction-mode pooler (PgBouncer) refuses. A role that may not alter the
-- database sets it for itself in this database; a host that refuses both keeps PostgreSQL's default (a slower
-- plan for the candidate list's first page, never a wrong answer).
DO $$
BEGIN
  EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
EXCEPTION WHEN insufficient_privilege THEN
  BEGIN
    EXECUTE format('ALTER ROLE CURRENT_USER IN DATABASE %I SET random_page_cost = 1.1', current_database());
  EXCEPTION WHEN insufficient_privilege THEN
    RAISE NOTICE 'random_page_cost left at the server default: this role may not set it';
  END;
END
$$;
