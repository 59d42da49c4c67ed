-- A picture's full size is encoded after its thumbnail: its bytes are null until then.
ALTER TABLE "room_attachments" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_pictures" ALTER COLUMN "bytes" DROP NOT NULL;
