-- The official rooms every new server opens with: one per category, owned by nobody (Parley's own).
INSERT INTO "stored_rooms" ("kind", "name", "category", "description", "official", "visibility", "capacity") VALUES
  ('group', 'Music Lounge', 'Music', 'What are you listening to? Albums, gigs, instruments and everything in between.', true, 'public', 1000),
  ('group', 'Gamers Hub', 'Gaming', 'Find teammates, talk about what you are playing, share tips.', true, 'public', 1000),
  ('group', 'Movie Night', 'Movies', 'Films and series: recommendations, reviews, no spoilers without warning.', true, 'public', 1000),
  ('group', 'Sports Bar', 'Sports', 'Matches, results and the teams you cheer for.', true, 'public', 1000),
  ('group', 'Tech Talk', 'Tech', 'Gadgets, code, the internet and the future.', true, 'public', 1000),
  ('group', 'Language Exchange', 'Languages', 'Practise a language with people who speak it, and help others with yours.', true, 'public', 1000),
  ('group', 'Just Chatting', 'Just chatting', 'Say hello, talk about your day, meet someone new.', true, 'public', 1000);
