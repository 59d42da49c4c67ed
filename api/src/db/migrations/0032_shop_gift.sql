-- A gift of gold in one round trip, as a purchase: claim the giver's key, lock both wallets in one
-- order (two people giving to each other never deadlock), take the gold or record that there was
-- not enough, give it, and record the outcome. No row when the recipient does not exist; a key
-- used before answers its first outcome and changes nothing.
CREATE OR REPLACE FUNCTION shop_gift(p_from uuid, p_key uuid, p_to uuid, p_amount integer)
RETURNS TABLE (r_outcome text, r_gold integer, r_to uuid, r_amount integer, r_fresh boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_outcome text := 'sent';
  v_gold integer;
BEGIN
  PERFORM 1 FROM users u WHERE u.id = p_to;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  INSERT INTO gold_gifts (from_user_id, idempotency_key, to_user_id, amount, outcome, gold_after)
    VALUES (p_from, p_key, p_to, p_amount, 'sent', 0) ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RETURN QUERY SELECT g.outcome, g.gold_after, g.to_user_id, g.amount, false FROM gold_gifts g
      WHERE g.from_user_id = p_from AND g.idempotency_key = p_key;
    RETURN;
  END IF;
  INSERT INTO wallets (user_id) SELECT x FROM unnest(ARRAY[p_from, p_to]) AS x ORDER BY x ON CONFLICT DO NOTHING;
  PERFORM 1 FROM wallets w WHERE w.user_id IN (p_from, p_to) ORDER BY w.user_id FOR UPDATE;
  UPDATE wallets w SET gold = w.gold - p_amount WHERE w.user_id = p_from AND w.gold >= p_amount RETURNING w.gold INTO v_gold;
  IF NOT FOUND THEN
    v_outcome := 'not_enough_gold';
    SELECT w.gold INTO v_gold FROM wallets w WHERE w.user_id = p_from;
  ELSE
    UPDATE wallets w SET gold = w.gold + p_amount WHERE w.user_id = p_to;
  END IF;
  UPDATE gold_gifts g SET outcome = v_outcome, gold_after = v_gold WHERE g.from_user_id = p_from AND g.idempotency_key = p_key;
  RETURN QUERY SELECT v_outcome, v_gold, p_to, p_amount, true;
END;
$$;
