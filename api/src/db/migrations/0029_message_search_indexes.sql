-- Message search reads the searcher's rooms' messages by time, slice after slice (rooms/search.ts).
CREATE INDEX "room_messages_room_time_idx" ON "room_messages" USING btree ("room_id","created_at");--> statement-breakpoint
-- has:picture and has:voice among a few in a hundred; also an attachment's "is its message there" check.
CREATE INDEX "room_messages_media_idx" ON "room_messages" USING btree ("room_id","created_at") WHERE "attachment_id" IS NOT NULL OR "media" IS NOT NULL;--> statement-breakpoint
-- from: someone, and the sender's messages found when their account goes (sender_id is set null).
CREATE INDEX "room_messages_sender_idx" ON "room_messages" USING btree ("sender_id","created_at");
