CREATE INDEX "custom_emoji_created_at_idx" ON "custom_emoji" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "owned_items_created_at_idx" ON "owned_items" USING btree ("created_at");