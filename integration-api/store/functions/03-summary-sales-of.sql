-- rebuild: select summary_recompute();
-- Completed sales with their scope: the wristband's current one, or the one given (a rescope
-- subtracts records under the scope they had before).
create or replace function summary_sales_of(rows sales[], scope_type text default null, scope_days text[] default null)
returns summary_sale[] language plpgsql stable as $$
begin
  return (select coalesce(array_agg((s.day_id, coalesce(scope_type, c.ticket_type_id),
      coalesce(scope_days, c.ticket_day_ids), s.payment_method, s.total, s.total_base, s.total_tax,
      s.tax_breakdown, s.items)::summary_sale), '{}')
  from unnest(rows) s join summary_wristband_scope c on c.wristband_id = s.wristband_id
  where s.status = 'completed');
end $$;
