CREATE TABLE "topic_search_counts" (
	"topic" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"searches" integer NOT NULL,
	CONSTRAINT "topic_search_counts_topic_minute_pk" PRIMARY KEY("topic","minute")
);
--> statement-breakpoint
CREATE INDEX "topic_search_counts_minute_idx" ON "topic_search_counts" USING btree ("minute");