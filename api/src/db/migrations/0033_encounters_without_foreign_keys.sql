-- Encounters are a log written at every match (two rows a match, thousands a second at peak). Each
-- foreign key cost a check and a lock on the user's row per row written; both users are signed in
-- when they meet, and deleting an account deletes its encounters itself (people/account.ts).
ALTER TABLE "encounters" DROP CONSTRAINT IF EXISTS "encounters_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "encounters" DROP CONSTRAINT IF EXISTS "encounters_partner_id_users_id_fk";
