CREATE TABLE "chat_agent" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text DEFAULT 'PRESCREEN' NOT NULL,
	"trial_id" uuid,
	"prescreen_form_id" uuid,
	"greeting" jsonb NOT NULL,
	"closing_message" jsonb NOT NULL,
	"languages" jsonb DEFAULT '["en","es"]'::jsonb NOT NULL,
	"require_phone_verification" boolean DEFAULT true NOT NULL,
	"next_step" text DEFAULT 'callback' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_conversation" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"chat_agent_id" uuid,
	"candidate_id" uuid,
	"status" text DEFAULT 'ONGOING' NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"token_hash" text NOT NULL,
	"phone" text,
	"phone_verified_at" timestamp with time zone,
	"verification_code_hash" text,
	"verification_expires_at" timestamp with time zone,
	"verification_attempts" integer DEFAULT 0 NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"prescreen_result_id" uuid,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"conversation_id" uuid NOT NULL,
	"role" text NOT NULL,
	"text" text NOT NULL,
	"meta" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"candidate_id" uuid,
	"direction" text NOT NULL,
	"to_phone" text NOT NULL,
	"from_phone" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"purpose" text DEFAULT 'transactional' NOT NULL,
	"provider" text NOT NULL,
	"provider_message_id" text,
	"template_key" text,
	"error" text,
	"sent_by_user_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_agent" ADD CONSTRAINT "chat_agent_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_agent" ADD CONSTRAINT "chat_agent_trial_id_trial_id_fk" FOREIGN KEY ("trial_id") REFERENCES "public"."trial"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_agent" ADD CONSTRAINT "chat_agent_prescreen_form_id_prescreen_form_id_fk" FOREIGN KEY ("prescreen_form_id") REFERENCES "public"."prescreen_form"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversation" ADD CONSTRAINT "chat_conversation_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversation" ADD CONSTRAINT "chat_conversation_chat_agent_id_chat_agent_id_fk" FOREIGN KEY ("chat_agent_id") REFERENCES "public"."chat_agent"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversation" ADD CONSTRAINT "chat_conversation_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_conversation" ADD CONSTRAINT "chat_conversation_prescreen_result_id_prescreen_result_id_fk" FOREIGN KEY ("prescreen_result_id") REFERENCES "public"."prescreen_result"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_message" ADD CONSTRAINT "chat_message_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_message" ADD CONSTRAINT "chat_message_conversation_id_chat_conversation_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."chat_conversation"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_message" ADD CONSTRAINT "sms_message_organization_id_organization_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_message" ADD CONSTRAINT "sms_message_candidate_id_candidate_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidate"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_agent_organization_id_idx" ON "chat_agent" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "chat_conversation_organization_created_idx" ON "chat_conversation" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "chat_conversation_candidate_idx" ON "chat_conversation" USING btree ("candidate_id");--> statement-breakpoint
CREATE INDEX "chat_message_conversation_created_idx" ON "chat_message" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_message_organization_created_idx" ON "sms_message" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_message_candidate_created_idx" ON "sms_message" USING btree ("candidate_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_message_provider_message_uidx" ON "sms_message" USING btree ("provider","provider_message_id") WHERE "sms_message"."provider_message_id" is not null;