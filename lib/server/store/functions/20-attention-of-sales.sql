-- rebuild: select attention_recompute();
-- Sales as attention records: money is a completed sale's total, a refund is a returned cart.
create or replace function attention_of_sales(rows m_sales[]) returns attention_record[] language sql immutable as $$
  select coalesce(array_agg(row(s.device_id, s.day_id, s.occurred_at, s.created_at,
    case when s.status = 'completed' then abs(s.total) else 0 end, s.type = 'return')::attention_record), '{}')
  from unnest(rows) s where s.device_id is not null
$$;
