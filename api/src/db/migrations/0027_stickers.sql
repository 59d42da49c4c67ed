ALTER TABLE "room_messages" ADD COLUMN "media" jsonb;--> statement-breakpoint
INSERT INTO "store_items" ("id", "name", "kind", "price", "description", "image_url", "emoji", "sort") VALUES
  ('stickers-party', 'Party stickers', 'stickerPack', 60, 'A bobbing balloon, falling confetti and a birthday cake, animated.', '/stickers/party/balloon.webp', '{}', 35)
  ON CONFLICT ("id") DO NOTHING;
