-- The quest catalogue and the store's items. Quests whose event has no source on a server are
-- never drawn (missions/area.ts lists the live sources); weight 0 retires a quest.
INSERT INTO "quest_catalogue" ("id", "cadence", "kind", "title", "target", "xp", "gold", "weight") VALUES
  ('say-hello', 'daily', 'chatAnswered', 'Have a chat where your partner answers', 1, 20, 30, 2),
  ('talk-three', 'daily', 'chatAnswered', 'Talk with 3 people who answer', 3, 40, 40, 1),
  ('minute-chat', 'daily', 'chatMinute', 'Have a chat that lasts a minute', 1, 25, 30, 2),
  ('minute-chats', 'daily', 'chatMinute', 'Have 3 chats that each last a minute', 3, 50, 50, 1),
  ('make-friend', 'daily', 'friendMade', 'Make a friend', 1, 40, 40, 1),
  ('group-replies', 'daily', 'groupMessageAnswered', 'Get 3 replies or reactions in a group room', 3, 30, 30, 1),
  ('watch-live', 'daily', 'liveMinutes', 'Spend 10 minutes in live streams', 10, 30, 30, 1),
  ('week-talk', 'weekly', 'chatAnswered', 'Talk with 15 people this week', 15, 150, 150, 1),
  ('week-minutes', 'weekly', 'chatMinute', 'Have 10 chats of a minute or more this week', 10, 150, 150, 1),
  ('week-visits', 'weekly', 'dailyVisit', 'Visit Parley on 5 days this week', 5, 100, 100, 1),
  ('week-friends', 'weekly', 'friendMade', 'Make 3 friends this week', 3, 150, 150, 1);
--> statement-breakpoint
INSERT INTO "store_items" ("id", "name", "kind", "price", "description", "image_url", "emoji", "sort") VALUES
  ('pack-critters', 'Critters', 'emojiPack', 30, 'A cat, a fox, an owl and a frog to say hello with.', '/emoji/parley_fox.svg', ARRAY['parley_cat', 'parley_fox', 'parley_owl', 'parley_frog'], 10),
  ('pack-weather', 'Weather', 'emojiPack', 40, 'Sun, rain, snow and a rainbow for every mood.', '/emoji/parley_sun.svg', ARRAY['parley_sun', 'parley_rain', 'parley_snow', 'parley_rainbow'], 20),
  ('pack-snacks', 'Snacks', 'emojiPack', 50, 'A taco, a donut, bubble tea and a cookie to share.', '/emoji/parley_donut.svg', ARRAY['parley_taco', 'parley_donut', 'parley_boba', 'parley_cookie'], 30),
  ('flair-sprout', 'Sprout flair', 'flair', 40, 'A little sprout beside your name: new here and growing.', '/store/flair-sprout.svg', '{}', 40),
  ('flair-star', 'Star flair', 'flair', 60, 'A star beside your name.', '/store/flair-star.svg', '{}', 50),
  ('frame-wave', 'Wave frame', 'frame', 80, 'A calm blue ring around your avatar.', '/store/frame-wave.svg', '{}', 60),
  ('frame-gold', 'Gold frame', 'frame', 120, 'A gold ring around your avatar.', '/store/frame-gold.svg', '{}', 70),
  ('bg-mint', 'Mint background', 'chatBackground', 70, 'A soft mint background for your chats.', '/store/bg-mint.svg', '{}', 80),
  ('bg-dusk', 'Dusk background', 'chatBackground', 100, 'An evening sky behind your chats.', '/store/bg-dusk.svg', '{}', 90),
  ('colour-coral', 'Coral name', 'nameColour', 50, 'Your name in coral.', '/store/colour-coral.svg', '{}', 100),
  ('colour-teal', 'Teal name', 'nameColour', 50, 'Your name in teal.', '/store/colour-teal.svg', '{}', 110);
