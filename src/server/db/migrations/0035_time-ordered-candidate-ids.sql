ALTER TABLE "candidate" ALTER COLUMN "id" SET DEFAULT time_ordered_uuid();--> statement-breakpoint
ALTER TABLE "contact_event" ALTER COLUMN "id" SET DEFAULT time_ordered_uuid();