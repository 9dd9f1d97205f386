-- rebuild: select summary_recompute();
-- Completed top-ups with their scope (as summary_sales_of).
create or replace function summary_topups_of(rows topups[], scope_type text default null, scope_days text[] default null)
returns summary_topup[] language plpgsql stable as $$
begin
  return (select coalesce(array_agg((t.day_id, coalesce(scope_type, c.ticket_type_id),
      coalesce(scope_days, c.ticket_day_ids), t.direction, t.payment_method, t.nature,
      t.amount)::summary_topup), '{}')
  from unnest(rows) t join summary_wristband_scope c on c.wristband_id = t.wristband_id
  where t.status = 'completed');
end $$;
