CREATE TABLE "account_signals" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"last_seen" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_signals_user_id_kind_value_pk" PRIMARY KEY("user_id","kind","value")
);
--> statement-breakpoint
CREATE TABLE "room_mutes" (
	"room_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"muted_until" timestamp with time zone NOT NULL,
	CONSTRAINT "room_mutes_room_id_user_id_pk" PRIMARY KEY("room_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "custom_emoji" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_emoji" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "weight" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "encounter" text;--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "reply" text;--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "support_requests" ADD COLUMN "replied_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "restricted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "last_visit_zone" text;--> statement-breakpoint
ALTER TABLE "account_signals" ADD CONSTRAINT "account_signals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_mutes" ADD CONSTRAINT "room_mutes_room_id_stored_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."stored_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "room_mutes" ADD CONSTRAINT "room_mutes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_signals_value_idx" ON "account_signals" USING btree ("kind","value");--> statement-breakpoint
CREATE INDEX "account_signals_last_seen_idx" ON "account_signals" USING btree ("last_seen");--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_replied_by_users_id_fk" FOREIGN KEY ("replied_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reports_reporter_idx" ON "reports" USING btree ("reporter_id");--> statement-breakpoint
-- Mutes running at the upgrade move to their own table before the column goes.
INSERT INTO "room_mutes" ("room_id", "user_id", "muted_until") SELECT "room_id", "user_id", "muted_until" FROM "room_members" WHERE "muted_until" > now();--> statement-breakpoint
ALTER TABLE "room_members" DROP COLUMN "muted_until";