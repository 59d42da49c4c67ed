ALTER TABLE "room_messages" ADD COLUMN "thread_id" bigint;--> statement-breakpoint
CREATE INDEX "room_messages_thread_idx" ON "room_messages" USING btree ("room_id","thread_id","id") WHERE "thread_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "room_thread_members" (
	"room_id" uuid NOT NULL,
	"root_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"following" boolean DEFAULT true NOT NULL,
	"last_read_id" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "room_thread_members_room_id_root_id_user_id_pk" PRIMARY KEY("room_id","root_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "room_thread_members" ADD CONSTRAINT "room_thread_members_room_id_stored_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."stored_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_thread_members" ADD CONSTRAINT "room_thread_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "room_thread_members_user_idx" ON "room_thread_members" USING btree ("user_id");
