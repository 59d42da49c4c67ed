CREATE TABLE "live_follows" (
	"follower_id" uuid NOT NULL,
	"broadcaster_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_follows_follower_id_broadcaster_id_pk" PRIMARY KEY("follower_id","broadcaster_id"),
	CONSTRAINT "live_follows_not_self" CHECK ("live_follows"."follower_id" <> "live_follows"."broadcaster_id")
);
--> statement-breakpoint
ALTER TABLE "live_follows" ADD CONSTRAINT "live_follows_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_follows" ADD CONSTRAINT "live_follows_broadcaster_id_users_id_fk" FOREIGN KEY ("broadcaster_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_follows_broadcaster_idx" ON "live_follows" USING btree ("broadcaster_id");