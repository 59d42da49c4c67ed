ALTER TABLE "stored_rooms" ADD COLUMN "channel_of" uuid;--> statement-breakpoint
ALTER TABLE "stored_rooms" ADD CONSTRAINT "stored_rooms_channel_of_users_id_fk" FOREIGN KEY ("channel_of") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stored_rooms_channel_of_idx" ON "stored_rooms" USING btree ("channel_of");