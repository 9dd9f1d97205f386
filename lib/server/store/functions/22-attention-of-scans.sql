-- rebuild: select attention_recompute();
-- Scans as attention records: activity without money.
create or replace function attention_of_scans(rows m_scans[]) returns attention_record[] language sql immutable as $$
  select coalesce(array_agg(row(s.device_id, s.day_id, s.occurred_at, s.created_at, 0, false)::attention_record), '{}')
  from unnest(rows) s where s.device_id is not null
$$;
