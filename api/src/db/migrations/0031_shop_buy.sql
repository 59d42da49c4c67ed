-- A purchase in one round trip: the steps the store took one statement at a time (own the item,
-- take its price or give it back, record the outcome under the buyer's key), each statement seeing
-- what committed before it, as before. A key used already answers its first outcome and changes
-- nothing; a key used at the same moment by another call rolls this call's changes back.
CREATE OR REPLACE FUNCTION shop_buy(p_user uuid, p_key uuid, p_item text, p_price integer)
RETURNS TABLE (r_outcome text, r_gold integer, r_item text, r_fresh boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_outcome text := 'bought';
  v_gold integer;
BEGIN
  RETURN QUERY SELECT p.outcome, p.gold_after, p.item_id, false FROM purchases p
    WHERE p.user_id = p_user AND p.idempotency_key = p_key;
  IF FOUND THEN
    RETURN;
  END IF;
  BEGIN
    INSERT INTO owned_items (user_id, item_id) VALUES (p_user, p_item) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      v_outcome := 'already_owned';
    ELSE
      UPDATE wallets w SET gold = w.gold - p_price WHERE w.user_id = p_user AND w.gold >= p_price RETURNING w.gold INTO v_gold;
      IF NOT FOUND THEN
        v_outcome := 'not_enough_gold';
        DELETE FROM owned_items o WHERE o.user_id = p_user AND o.item_id = p_item;
      END IF;
    END IF;
    IF v_gold IS NULL THEN
      SELECT coalesce(max(w.gold), 0) INTO v_gold FROM wallets w WHERE w.user_id = p_user;
    END IF;
    INSERT INTO purchases (user_id, idempotency_key, item_id, outcome, gold_after)
      VALUES (p_user, p_key, p_item, v_outcome, v_gold) ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'purchase key used meanwhile' USING ERRCODE = 'PB001';
    END IF;
  EXCEPTION WHEN SQLSTATE 'PB001' THEN
    RETURN QUERY SELECT p.outcome, p.gold_after, p.item_id, false FROM purchases p
      WHERE p.user_id = p_user AND p.idempotency_key = p_key;
    RETURN;
  END;
  RETURN QUERY SELECT v_outcome, v_gold, p_item, true;
END;
$$;
