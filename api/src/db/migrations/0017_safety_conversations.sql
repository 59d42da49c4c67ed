CREATE TABLE "room_mutes" (
	"room_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"muted_until" timestamp with time zone NOT NULL,
	CONSTRAINT "room_mutes_room_id_user_id_pk" PRIMARY KEY("room_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "reply" text;--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "replied_by" uuid;--> statement-breakpoint
ALTER TABLE "room_mutes" ADD CONSTRAINT "room_mutes_room_id_stored_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."stored_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_mutes" ADD CONSTRAINT "room_mutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_replied_by_users_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
INSERT INTO "room_mutes" ("room_id", "user_id", "muted_until") SELECT "room_id", "user_id", "muted_until" FROM "room_members" WHERE "muted_until" > now();--> statement-breakpoint
ALTER TABLE "room_members" DROP COLUMN "muted_until";