-- rebuild: select attention_recompute();
-- Top-ups as attention records: money is a completed amount, a refund is a withdrawal.
create or replace function attention_of_topups(rows m_topups[]) returns attention_record[] language sql immutable as $$
  select coalesce(array_agg(row(t.device_id, t.day_id, t.occurred_at, t.created_at,
    case when t.status = 'completed' then t.amount else 0 end, t.direction = 'withdraw')::attention_record), '{}')
  from unnest(rows) t where t.device_id is not null
$$;
