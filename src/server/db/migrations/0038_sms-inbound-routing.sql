-- Inbound SMS to a number no organization owns are routed by who texted the person from it (decision 118).
CREATE INDEX "sms_message_outbound_to_from_idx" ON "sms_message" USING btree ("to_phone","from_phone") WHERE "sms_message"."direction" = 'outbound';
