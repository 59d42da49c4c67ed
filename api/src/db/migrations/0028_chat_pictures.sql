CREATE TABLE "chat_pictures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"room_id" uuid NOT NULL,
	"uploader_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
	"bytes" bytea NOT NULL,
	"thumb" bytea NOT NULL,
	"size" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"client_id" text,
	"delete_after" timestamp with time zone,
	"evidence_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "chat_pictures_room_idx" ON "chat_pictures" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "chat_pictures_uploader_idx" ON "chat_pictures" USING btree ("uploader_id");
