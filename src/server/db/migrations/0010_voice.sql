CREATE TABLE "call" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid,
	"voice_agent_id" uuid,
	"type" text NOT NULL,
	"direction" text DEFAULT 'outbound' NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"outcome" text,
	"provider" text NOT NULL,
	"provider_call_id" text,
	"to_phone" text,
	"from_phone" text,
	"language" text DEFAULT 'en' NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"duration_seconds" integer,
	"cost_usd" numeric(10, 4),
	"recording_url" text,
	"transcript" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"structured_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prescreen_result_id" uuid,
	"processing_run_id" uuid,
	"created_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_event" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"call_id" uuid NOT NULL,
	"type" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "callback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid NOT NULL,
	"voice_agent_id" uuid,
	"type" text DEFAULT 'PRESCREEN' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT 'requested' NOT NULL,
	"requested_for" timestamp with time zone NOT NULL,
	"scheduled_for" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_call_id" uuid,
	"job_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voice_agent" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"trial_id" uuid,
	"prescreen_form_id" uuid,
	"schedule" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"languages" jsonb DEFAULT '["en","es"]'::jsonb NOT NULL,
	"voice" text DEFAULT 'default' NOT NULL,
	"first_message" jsonb NOT NULL,
	"voicemail_message" jsonb NOT NULL,
	"calling_hours_start" text DEFAULT '08:00' NOT NULL,
	"calling_hours_end" text DEFAULT '21:00' NOT NULL,
	"from_number" text,
	"provider_assistant_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call" ADD CONSTRAINT "call_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call" ADD CONSTRAINT "call_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call" ADD CONSTRAINT "call_voice_agent_id_voice_agent_id_fk" FOREIGN KEY ("voice_agent_id") REFERENCES "public"."voice_agent"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call" ADD CONSTRAINT "call_prescreen_result_id_prescreen_result_id_fk" FOREIGN KEY ("prescreen_result_id") REFERENCES "public"."prescreen_result"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_event" ADD CONSTRAINT "call_event_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_event" ADD CONSTRAINT "call_event_call_id_call_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."call"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback" ADD CONSTRAINT "callback_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback" ADD CONSTRAINT "callback_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback" ADD CONSTRAINT "callback_voice_agent_id_voice_agent_id_fk" FOREIGN KEY ("voice_agent_id") REFERENCES "public"."voice_agent"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_agent" ADD CONSTRAINT "voice_agent_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_agent" ADD CONSTRAINT "voice_agent_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_agent" ADD CONSTRAINT "voice_agent_prescreen_form_id_prescreen_form_id_fk" FOREIGN KEY ("prescreen_form_id") REFERENCES "public"."prescreen_form"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_organization_created_idx" ON "call" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "call_candidate_idx" ON "call" USING btree ("candidate_id");--> statement-breakpoint
CREATE UNIQUE INDEX "call_provider_call_uidx" ON "call" USING btree ("provider","provider_call_id") WHERE "call"."provider_call_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "call_event_dedupe_uidx" ON "call_event" USING btree ("call_id","dedupe_key");--> statement-breakpoint
CREATE INDEX "call_event_organization_id_idx" ON "call_event" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "callback_pending_candidate_uidx" ON "callback" USING btree ("candidate_id") WHERE "callback"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "callback_organization_scheduled_idx" ON "callback" USING btree ("organization_id","scheduled_for");--> statement-breakpoint
CREATE INDEX "voice_agent_organization_id_idx" ON "voice_agent" USING btree ("organization_id");