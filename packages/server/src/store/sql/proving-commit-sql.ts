// commit_charges as migration 9 redefines it: the group commit of migration 5 (schema.ts), which also writes
// the proofs of the charges sent with one, in the same call. A proof goes in only for a charge that was
// made; one already there (and not yet expired) means its request was answered meanwhile: that charge is
// taken off the counters again and answered as a replay, a row (charged NULL, used = its position among
// the c_ arrays) after the runs. Those rows are in the receipt too, so a resolver reads them the same way.
export const POSTGRES_PROVING_COMMIT = `
  DROP FUNCTION commit_charges(UUID, BIGINT, UUID[], TEXT[], BIGINT[], BIGINT[], BIGINT[], TEXT[], BIGINT[], INT[], BIGINT[]);
  CREATE FUNCTION commit_charges(
    p_token UUID, p_made_at BIGINT, p_forget UUID[],
    g_account TEXT[], g_period BIGINT[], g_limit BIGINT[], g_bucket BIGINT[], g_key TEXT[], g_lookups BIGINT[], g_size INT[],
    c_lookups BIGINT[], c_proof TEXT[], c_fingerprint TEXT[], c_status INT[], c_at BIGINT[], p_window BIGINT
  ) RETURNS TABLE (charged BOOLEAN, used BIGINT) LANGUAGE plpgsql AS $$
    #variable_conflict use_column
    DECLARE
      first INT := 1;
      gi INT;
      n_lookups BIGINT;
      n_requests BIGINT;
      all_charged BOOLEAN[] := '{}';
      all_used BIGINT[] := '{}';
      c_charged BOOLEAN[] := array_fill(false, ARRAY[cardinality(c_lookups)]);
      c_group INT[] := array_fill(0, ARRAY[cardinality(c_lookups)]);
    BEGIN
      FOR g IN 1 .. cardinality(g_account) LOOP
        FOR j IN first .. first + g_size[g] - 1 LOOP c_group[j] := g; END LOOP;
        FOR k IN 0 .. g_size[g] LOOP -- 0: the group as one charge; k: its k-th charge alone
          n_lookups := CASE WHEN k = 0 THEN g_lookups[g] ELSE c_lookups[first + k - 1] END;
          n_requests := CASE WHEN k = 0 THEN g_size[g] ELSE 1 END;
          WITH quota AS (
            INSERT INTO quota_counters AS q (account_id, period_start, used)
            SELECT g_account[g], g_period[g], n_lookups WHERE n_lookups <= g_limit[g]
            ON CONFLICT (account_id, period_start) DO UPDATE SET used = q.used + excluded.used
            WHERE q.used + excluded.used <= g_limit[g]
            RETURNING q.used
          ), usage AS (
            INSERT INTO usage_counters AS u (account_id, bucket_start, key_id, requests, lookups)
            SELECT g_account[g], g_bucket[g], g_key[g], n_requests, n_lookups WHERE EXISTS (SELECT 1 FROM quota)
            ON CONFLICT (account_id, bucket_start, key_id) DO UPDATE SET
              requests = u.requests + excluded.requests, lookups = u.lookups + excluded.lookups
          )
          SELECT (SELECT quota.used FROM quota) IS NOT NULL,
                 coalesce((SELECT quota.used FROM quota),
                          (SELECT q.used FROM quota_counters q WHERE q.account_id = g_account[g] AND q.period_start = g_period[g]), 0)
          INTO charged, used;
          all_charged := all_charged || charged;
          all_used := all_used || used;
          RETURN NEXT;
          IF charged AND k = 0 THEN
            FOR j IN first .. first + g_size[g] - 1 LOOP c_charged[j] := true; END LOOP;
          ELSIF charged THEN
            c_charged[first + k - 1] := true;
          END IF;
          EXIT WHEN k = 0 AND (charged OR g_size[g] = 1);
        END LOOP;
        first := first + g_size[g];
      END LOOP;
      FOR i IN 1 .. cardinality(c_lookups) LOOP
        CONTINUE WHEN c_proof[i] IS NULL OR NOT c_charged[i];
        INSERT INTO idempotency_proofs AS p (key_hash, fingerprint, status, lookups, created_at)
        VALUES (decode(c_proof[i], 'hex'), decode(c_fingerprint[i], 'hex'), c_status[i], c_lookups[i], c_at[i])
        ON CONFLICT (key_hash) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,
          lookups = excluded.lookups, created_at = excluded.created_at, answer = NULL
        WHERE p.created_at < c_at[i] - p_window;
        CONTINUE WHEN FOUND;
        gi := c_group[i];
        UPDATE quota_counters SET used = used - c_lookups[i] WHERE account_id = g_account[gi] AND period_start = g_period[gi];
        UPDATE usage_counters SET requests = requests - 1, lookups = lookups - c_lookups[i]
          WHERE account_id = g_account[gi] AND bucket_start = g_bucket[gi] AND key_id = g_key[gi];
        charged := NULL;
        used := i;
        all_charged := all_charged || charged;
        all_used := all_used || used;
        RETURN NEXT;
      END LOOP;
      INSERT INTO charge_receipts (token, made_at, charged, used) VALUES (p_token, p_made_at, all_charged, all_used);
      DELETE FROM charge_receipts WHERE token = ANY (p_forget);
    END
  $$;`;
