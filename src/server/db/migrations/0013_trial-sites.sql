-- Trial sites get stable ids (bookings and scheduling agents refer to a site by id, never by its name: many
-- sponsors call every facility "Research Site") and an "ours" mark; their zones are derived when read.
UPDATE "trial" SET "sites" = (
  SELECT coalesce(jsonb_agg(
    CASE WHEN s.elem->>'id' IS NOT NULL THEN s.elem ELSE s.elem || jsonb_build_object('id', gen_random_uuid()::text) END
      || jsonb_build_object('isOwnSite', coalesce((s.elem->>'isOwnSite')::boolean, false))
    ORDER BY s.ord), '[]'::jsonb)
  FROM jsonb_array_elements("trial"."sites") WITH ORDINALITY AS s(elem, ord)
) WHERE jsonb_typeof("sites") = 'array' AND jsonb_array_length("sites") > 0;--> statement-breakpoint
DROP INDEX "booking_slot_uidx";--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "site_id" text;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "site_city" text;--> statement-breakpoint
-- Visits booked before: the first site of their trial with the booked name (what booking picked then).
UPDATE "booking" SET "site_id" = (
  SELECT s.elem->>'id' FROM "trial" t, jsonb_array_elements(t."sites") WITH ORDINALITY AS s(elem, ord)
  WHERE t."id" = "booking"."trial_id" AND btrim(s.elem->>'name') = btrim("booking"."site_name")
  ORDER BY s.ord LIMIT 1
);--> statement-breakpoint
UPDATE "booking" SET "site_city" = (
  SELECT s.elem->>'city' FROM "trial" t, jsonb_array_elements(t."sites") AS s(elem)
  WHERE t."id" = "booking"."trial_id" AND s.elem->>'id' = "booking"."site_id"
  LIMIT 1
) WHERE "site_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_site_slot_uidx" ON "booking" USING btree ("organization_id","trial_id","site_id","starts_at") WHERE "booking"."status" = 'scheduled';
