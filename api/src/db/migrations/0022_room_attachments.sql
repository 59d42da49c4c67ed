CREATE TABLE "room_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"room_id" uuid NOT NULL,
	"uploader_id" uuid,
	"kind" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" bytea NOT NULL,
	"thumb" bytea,
	"size" integer NOT NULL,
	"width" integer,
	"height" integer,
	"duration_ms" integer,
	"client_id" text,
	"evidence_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "room_attachments" ADD CONSTRAINT "room_attachments_room_id_stored_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."stored_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_attachments" ADD CONSTRAINT "room_attachments_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "room_attachments_uploader_idx" ON "room_attachments" USING btree ("uploader_id");--> statement-breakpoint
CREATE INDEX "room_attachments_room_idx" ON "room_attachments" USING btree ("room_id");--> statement-breakpoint
ALTER TABLE "room_messages" ADD COLUMN "attachment_id" uuid;
