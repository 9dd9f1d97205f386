-- A wristband sale that becomes completed later (it was pending) is new to the rules too; a re-sent
-- sale that was already completed is not queued again.
create or replace function gates_sales_completed() returns trigger language plpgsql as $$
begin
  insert into g_misuse_queue (resource, id)
    select 'sales', n.id from new_rows n join old_rows o on o.id = n.id
    where n.status = 'completed' and o.status <> 'completed'
      and n.payment_method = 'wristband' and n.type = 'cart'
  on conflict do nothing;
  return null;
end $$;

create or replace trigger gates_sales_upd after update on m_sales
  referencing new table as new_rows old table as old_rows
  for each statement execute function gates_sales_completed();
