CREATE TABLE "live_stream_summaries" (
	"room_id" uuid PRIMARY KEY NOT NULL,
	"broadcaster_id" uuid NOT NULL,
	"title" text NOT NULL,
	"category" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"peak_viewers" integer NOT NULL,
	"total_viewers" integer NOT NULL,
	"messages" integer NOT NULL,
	"gifts" integer NOT NULL,
	"gold" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "live_stream_summaries" ADD CONSTRAINT "live_stream_summaries_broadcaster_id_users_id_fk" FOREIGN KEY ("broadcaster_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_stream_summaries_broadcaster_idx" ON "live_stream_summaries" USING btree ("broadcaster_id","ended_at");
